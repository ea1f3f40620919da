CREATE TABLE "analytics_reports" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"tenant_id" uuid NOT NULL,
	"title" text NOT NULL,
	"metrics" jsonb NOT NULL,
	"app_ids" jsonb NOT NULL,
	"emails" jsonb NOT NULL,
	"frequency" text NOT NULL,
	"hour" integer NOT NULL,
	"minute" integer NOT NULL,
	"timezone" text NOT NULL,
	"day_of_week" integer,
	"day_of_month" integer,
	"enabled" boolean DEFAULT true NOT NULL,
	"next_run_at" timestamp with time zone NOT NULL,
	"last_sent_at" timestamp with time zone,
	"created_by" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "analytics_reports" ADD CONSTRAINT "analytics_reports_tenant_id_analytics_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."analytics_tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "analytics_reports" ADD CONSTRAINT "analytics_reports_created_by_analytics_members_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."analytics_members"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "analytics_reports_tenant" ON "analytics_reports" USING btree ("tenant_id");--> statement-breakpoint
CREATE INDEX "analytics_reports_due" ON "analytics_reports" USING btree ("enabled","next_run_at");