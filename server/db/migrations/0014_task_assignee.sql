-- The worker wrote its id into assignee_id when it claimed a task, over an admin's assignment:
-- the worker's id moves to claimed_by, and assignee_id keeps only a platform admin (a user).
ALTER TABLE "deployment_tasks" ADD COLUMN "claimed_by" text;--> statement-breakpoint
UPDATE "deployment_tasks" SET "claimed_by" = "assignee_id" WHERE "assignee_id" IS NOT NULL AND NOT EXISTS (SELECT 1 FROM "users" WHERE "users"."id"::text = "deployment_tasks"."assignee_id");--> statement-breakpoint
UPDATE "deployment_tasks" SET "assignee_id" = NULL WHERE "claimed_by" IS NOT NULL AND "claimed_by" = "assignee_id";--> statement-breakpoint
ALTER TABLE "deployment_tasks" ALTER COLUMN "assignee_id" SET DATA TYPE uuid USING "assignee_id"::uuid;--> statement-breakpoint
ALTER TABLE "deployment_tasks" ADD CONSTRAINT "deployment_tasks_assignee_id_users_id_fk" FOREIGN KEY ("assignee_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;
