CREATE TABLE "deployment_health_checks" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"deployment_id" uuid NOT NULL,
	"task_id" uuid,
	"healthy" boolean NOT NULL,
	"probes" jsonb NOT NULL,
	"reason" text,
	"checked_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "analytics_tenants" ADD COLUMN "health_key_hash" text;--> statement-breakpoint
ALTER TABLE "deployment_backups" ADD COLUMN "store_key" text;--> statement-breakpoint
ALTER TABLE "deployment_backups" ADD COLUMN "sha256" text;--> statement-breakpoint
ALTER TABLE "deployment_backups" ADD COLUMN "manifest" jsonb;--> statement-breakpoint
ALTER TABLE "deployment_backups" ADD COLUMN "taken_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "deployment_backups" ADD COLUMN "error" text;--> statement-breakpoint
ALTER TABLE "deployment_health_checks" ADD CONSTRAINT "deployment_health_checks_deployment_id_deployments_id_fk" FOREIGN KEY ("deployment_id") REFERENCES "public"."deployments"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "deployment_health_checks_deployment" ON "deployment_health_checks" USING btree ("deployment_id","checked_at");--> statement-breakpoint
CREATE UNIQUE INDEX "deployment_health_checks_task" ON "deployment_health_checks" USING btree ("task_id");--> statement-breakpoint
ALTER TABLE "analytics_tenants" ADD CONSTRAINT "analytics_tenants_health_key_hash_unique" UNIQUE("health_key_hash");