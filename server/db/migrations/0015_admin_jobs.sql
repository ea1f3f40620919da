-- The admin lists' %text% search uses trigram indexes (PGlite loads the extension in db/client.ts).
CREATE EXTENSION IF NOT EXISTS pg_trgm;--> statement-breakpoint
CREATE TABLE "paused_schedules" (
	"name" text PRIMARY KEY NOT NULL,
	"cron" text NOT NULL,
	"timezone" text NOT NULL,
	"paused_by" uuid,
	"paused_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "paused_schedules" ADD CONSTRAINT "paused_schedules_paused_by_users_id_fk" FOREIGN KEY ("paused_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "audit_logs_action_id" ON "audit_logs" USING btree ("action","id");--> statement-breakpoint
CREATE INDEX "audit_logs_target_type_id" ON "audit_logs" USING btree ("target_type","id");--> statement-breakpoint
CREATE INDEX "audit_logs_actor_email_id" ON "audit_logs" USING btree (coalesce("actor_email", ''),"id");--> statement-breakpoint
CREATE INDEX "audit_logs_search_trgm" ON "audit_logs" USING gin ((coalesce("action", '') || ' ' || coalesce("actor_email", '') || ' ' || coalesce("target_id", '')) gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "companies_name_id" ON "companies" USING btree ("name","id");--> statement-breakpoint
CREATE INDEX "companies_size_id" ON "companies" USING btree (coalesce("size", ''),"id");--> statement-breakpoint
CREATE INDEX "companies_created_id" ON "companies" USING btree ("created_at","id");--> statement-breakpoint
CREATE INDEX "companies_search_trgm" ON "companies" USING gin ((coalesce("name", '') || ' ' || coalesce("id"::text, '')) gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "deployment_tasks_created_id" ON "deployment_tasks" USING btree ("created_at","id");--> statement-breakpoint
CREATE INDEX "deployment_tasks_attempts_id" ON "deployment_tasks" USING btree ("attempts","id");--> statement-breakpoint
CREATE INDEX "deployments_name_id" ON "deployments" USING btree ("name","id");--> statement-breakpoint
CREATE INDEX "deployments_plan_code_id" ON "deployments" USING btree ("plan_code","id");--> statement-breakpoint
CREATE INDEX "deployments_created_id" ON "deployments" USING btree ("created_at","id");--> statement-breakpoint
CREATE INDEX "users_first_name_id" ON "users" USING btree ("first_name","id");--> statement-breakpoint
CREATE INDEX "users_last_name_id" ON "users" USING btree ("last_name","id");--> statement-breakpoint
CREATE INDEX "users_created_id" ON "users" USING btree ("created_at","id");--> statement-breakpoint
CREATE INDEX "users_search_trgm" ON "users" USING gin ((coalesce("email", '') || ' ' || coalesce("first_name", '') || ' ' || coalesce("last_name", '')) gin_trgm_ops);