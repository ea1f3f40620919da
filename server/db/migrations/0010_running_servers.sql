CREATE TYPE "public"."task_status" AS ENUM('queued', 'running', 'completed', 'failed', 'canceled');--> statement-breakpoint
CREATE TYPE "public"."task_type" AS ENUM('provision', 'modify', 'restart', 'pause', 'resume', 'delete', 'restore', 'backup', 'health_check', 'update_domain', 'verify_domain', 'unlock_users');--> statement-breakpoint
CREATE TABLE "deployment_backups" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"deployment_id" uuid NOT NULL,
	"kind" text NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"snapshot_id" text,
	"size_bytes" bigint,
	"task_id" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"completed_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "deployment_events" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"deployment_id" uuid NOT NULL,
	"at" timestamp with time zone DEFAULT now() NOT NULL,
	"kind" text NOT NULL,
	"from_status" "deployment_status",
	"to_status" "deployment_status",
	"task_id" uuid,
	"task_type" "task_type",
	"message" text,
	"actor_id" uuid,
	"actor_email" text
);
--> statement-breakpoint
CREATE TABLE "deployment_runtime" (
	"deployment_id" uuid PRIMARY KEY NOT NULL,
	"machine_id" text,
	"url" text,
	"default_domain" text,
	"custom_domain" text,
	"ssl_state" text DEFAULT 'none' NOT NULL,
	"verification_token" text,
	"domain_verified_at" timestamp with time zone,
	"health_state" text DEFAULT 'unknown' NOT NULL,
	"health_checked_at" timestamp with time zone,
	"termination_scheduled_at" timestamp with time zone,
	"deleted_at" timestamp with time zone,
	"restorable_until" timestamp with time zone,
	"final_snapshot_id" text,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "deployment_tasks" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"seq" bigserial NOT NULL,
	"deployment_id" uuid NOT NULL,
	"type" "task_type" NOT NULL,
	"status" "task_status" DEFAULT 'queued' NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"assignee_id" text,
	"payload" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"steps" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"progress" integer DEFAULT 0 NOT NULL,
	"last_error" text,
	"requested_by" uuid,
	"requested_by_email" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"started_at" timestamp with time zone,
	"finished_at" timestamp with time zone,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "mau_history" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"deployment_id" uuid NOT NULL,
	"subscription_id" uuid,
	"used" integer NOT NULL,
	"starts_at" timestamp with time zone NOT NULL,
	"ends_at" timestamp with time zone NOT NULL,
	"sampled_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "mock_cloud_calls" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"op" text NOT NULL,
	"deployment_id" uuid NOT NULL,
	"request_key" text NOT NULL,
	"outcome" text NOT NULL,
	"result" jsonb,
	"at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "mock_cloud_machines" (
	"id" text PRIMARY KEY NOT NULL,
	"deployment_id" uuid NOT NULL,
	"status" text NOT NULL,
	"region" text,
	"size" integer,
	"domain" text,
	"ssl" boolean DEFAULT false NOT NULL,
	"ready_at" timestamp with time zone NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"destroyed_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "mock_cloud_snapshots" (
	"id" text PRIMARY KEY NOT NULL,
	"machine_id" text NOT NULL,
	"deployment_id" uuid NOT NULL,
	"size_bytes" bigint NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "deployment_backups" ADD CONSTRAINT "deployment_backups_deployment_id_deployments_id_fk" FOREIGN KEY ("deployment_id") REFERENCES "public"."deployments"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "deployment_events" ADD CONSTRAINT "deployment_events_deployment_id_deployments_id_fk" FOREIGN KEY ("deployment_id") REFERENCES "public"."deployments"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "deployment_runtime" ADD CONSTRAINT "deployment_runtime_deployment_id_deployments_id_fk" FOREIGN KEY ("deployment_id") REFERENCES "public"."deployments"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "deployment_tasks" ADD CONSTRAINT "deployment_tasks_deployment_id_deployments_id_fk" FOREIGN KEY ("deployment_id") REFERENCES "public"."deployments"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "deployment_tasks" ADD CONSTRAINT "deployment_tasks_requested_by_users_id_fk" FOREIGN KEY ("requested_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "mau_history" ADD CONSTRAINT "mau_history_deployment_id_deployments_id_fk" FOREIGN KEY ("deployment_id") REFERENCES "public"."deployments"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "mau_history" ADD CONSTRAINT "mau_history_subscription_id_subscriptions_id_fk" FOREIGN KEY ("subscription_id") REFERENCES "public"."subscriptions"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "deployment_backups_deployment" ON "deployment_backups" USING btree ("deployment_id","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "deployment_backups_task" ON "deployment_backups" USING btree ("task_id");--> statement-breakpoint
CREATE INDEX "deployment_events_deployment_at" ON "deployment_events" USING btree ("deployment_id","at");--> statement-breakpoint
CREATE INDEX "deployment_tasks_deployment_seq" ON "deployment_tasks" USING btree ("deployment_id","seq");--> statement-breakpoint
CREATE INDEX "deployment_tasks_open" ON "deployment_tasks" USING btree ("status") WHERE status in ('queued', 'running');--> statement-breakpoint
CREATE UNIQUE INDEX "mau_history_deployment_month" ON "mau_history" USING btree ("deployment_id","starts_at");--> statement-breakpoint
CREATE INDEX "mock_cloud_calls_deployment_op" ON "mock_cloud_calls" USING btree ("deployment_id","op");--> statement-breakpoint
CREATE UNIQUE INDEX "mock_cloud_calls_applied_key" ON "mock_cloud_calls" USING btree ("request_key") WHERE outcome = 'applied';