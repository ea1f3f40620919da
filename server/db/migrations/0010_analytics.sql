CREATE TYPE "public"."analytics_app_role" AS ENUM('admin', 'user');--> statement-breakpoint
CREATE TABLE "analytics_app_members" (
	"app_id" uuid NOT NULL,
	"member_id" uuid NOT NULL,
	"role" "analytics_app_role" NOT NULL,
	CONSTRAINT "analytics_app_members_app_id_member_id_pk" PRIMARY KEY("app_id","member_id")
);
--> statement-breakpoint
CREATE TABLE "analytics_app_users" (
	"app_id" uuid NOT NULL,
	"device_id" text NOT NULL,
	"first_seen_at" timestamp with time zone NOT NULL,
	"last_seen_at" timestamp with time zone NOT NULL,
	"sessions" integer DEFAULT 0 NOT NULL,
	"total_duration" double precision DEFAULT 0 NOT NULL,
	"metrics" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"details" jsonb DEFAULT '{}'::jsonb NOT NULL,
	CONSTRAINT "analytics_app_users_app_id_device_id_pk" PRIMARY KEY("app_id","device_id")
);
--> statement-breakpoint
CREATE TABLE "analytics_apps" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"tenant_id" uuid NOT NULL,
	"name" text NOT NULL,
	"type" text DEFAULT 'mobile' NOT NULL,
	"category" text,
	"key" text NOT NULL,
	"timezone" text DEFAULT 'UTC' NOT NULL,
	"icon_file_id" uuid,
	"checksum_salt" text,
	"created_by" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"last_data_at" timestamp with time zone,
	"locked" boolean DEFAULT false NOT NULL,
	"limits" jsonb DEFAULT '{}'::jsonb NOT NULL,
	CONSTRAINT "analytics_apps_key_unique" UNIQUE("key")
);
--> statement-breakpoint
CREATE TABLE "analytics_daily_events" (
	"app_id" uuid NOT NULL,
	"event_key" text NOT NULL,
	"day" text NOT NULL,
	"segment" text DEFAULT '' NOT NULL,
	"value" text DEFAULT '' NOT NULL,
	"count" double precision DEFAULT 0 NOT NULL,
	"sum" double precision DEFAULT 0 NOT NULL,
	"dur" double precision DEFAULT 0 NOT NULL,
	CONSTRAINT "analytics_daily_events_app_id_event_key_day_segment_value_pk" PRIMARY KEY("app_id","event_key","day","segment","value")
);
--> statement-breakpoint
CREATE TABLE "analytics_daily_sessions" (
	"app_id" uuid NOT NULL,
	"day" text NOT NULL,
	"sessions" integer DEFAULT 0 NOT NULL,
	"new_users" integer DEFAULT 0 NOT NULL,
	"duration" double precision DEFAULT 0 NOT NULL,
	CONSTRAINT "analytics_daily_sessions_app_id_day_pk" PRIMARY KEY("app_id","day")
);
--> statement-breakpoint
CREATE TABLE "analytics_drops" (
	"app_id" uuid NOT NULL,
	"day" text NOT NULL,
	"kind" text NOT NULL,
	"count" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "analytics_drops_app_id_day_kind_pk" PRIMARY KEY("app_id","day","kind")
);
--> statement-breakpoint
CREATE TABLE "analytics_event_groups" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"app_id" uuid NOT NULL,
	"name" text NOT NULL,
	"description" text,
	"event_keys" jsonb NOT NULL,
	"visible" boolean DEFAULT true NOT NULL,
	"count_name" text,
	"sum_name" text,
	"dur_name" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "analytics_events" (
	"app_id" uuid NOT NULL,
	"key" text NOT NULL,
	"name" text,
	"description" text,
	"visible" boolean DEFAULT true NOT NULL,
	"count_name" text,
	"sum_name" text,
	"dur_name" text,
	"omitted_segments" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "analytics_events_app_id_key_pk" PRIMARY KEY("app_id","key")
);
--> statement-breakpoint
CREATE TABLE "analytics_jobs" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"tenant_id" uuid NOT NULL,
	"app_id" uuid,
	"kind" text NOT NULL,
	"status" text NOT NULL,
	"params" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"result" jsonb,
	"created_by" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"finished_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "analytics_members" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"tenant_id" uuid NOT NULL,
	"user_id" uuid NOT NULL,
	"full_name" text NOT NULL,
	"username" text NOT NULL,
	"email" text NOT NULL,
	"global_admin" boolean DEFAULT false NOT NULL,
	"locked" boolean DEFAULT false NOT NULL,
	"banned_until" timestamp with time zone,
	"password_hash" text,
	"api_key_hash" text,
	"last_login_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "analytics_monthly_devices" (
	"app_id" uuid NOT NULL,
	"month" text NOT NULL,
	"device_id" text NOT NULL,
	CONSTRAINT "analytics_monthly_devices_app_id_month_device_id_pk" PRIMARY KEY("app_id","month","device_id")
);
--> statement-breakpoint
CREATE TABLE "analytics_overview_tiles" (
	"app_id" uuid NOT NULL,
	"position" integer NOT NULL,
	"event_key" text NOT NULL,
	"property" text NOT NULL,
	CONSTRAINT "analytics_overview_tiles_app_id_position_pk" PRIMARY KEY("app_id","position")
);
--> statement-breakpoint
CREATE TABLE "analytics_raw_events" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"app_id" uuid NOT NULL,
	"device_id" text NOT NULL,
	"key" text NOT NULL,
	"count" double precision NOT NULL,
	"sum" double precision,
	"dur" double precision,
	"segmentation" jsonb,
	"occurred_at" timestamp with time zone NOT NULL,
	"received_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "analytics_request_hashes" (
	"app_id" uuid NOT NULL,
	"hash" text NOT NULL,
	"received_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "analytics_request_hashes_app_id_hash_pk" PRIMARY KEY("app_id","hash")
);
--> statement-breakpoint
CREATE TABLE "analytics_segment_values" (
	"app_id" uuid NOT NULL,
	"event_key" text NOT NULL,
	"segment" text NOT NULL,
	"value" text NOT NULL,
	CONSTRAINT "analytics_segment_values_app_id_event_key_segment_value_pk" PRIMARY KEY("app_id","event_key","segment","value")
);
--> statement-breakpoint
CREATE TABLE "analytics_tenants" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"deployment_id" uuid NOT NULL,
	"raw_retention_days" integer DEFAULT 90 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "analytics_tenants_deployment_id_unique" UNIQUE("deployment_id")
);
--> statement-breakpoint
CREATE TABLE "analytics_tokens" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"tenant_id" uuid NOT NULL,
	"owner_id" uuid NOT NULL,
	"token_hash" text NOT NULL,
	"purpose" text NOT NULL,
	"endpoints" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"app_ids" jsonb,
	"expires_at" timestamp with time zone,
	"multi_use" boolean DEFAULT true NOT NULL,
	"spent_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "analytics_tokens_token_hash_unique" UNIQUE("token_hash")
);
--> statement-breakpoint
CREATE TABLE "analytics_versions" (
	"tenant_id" uuid NOT NULL,
	"version" text NOT NULL,
	"installed_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "analytics_versions_tenant_id_version_pk" PRIMARY KEY("tenant_id","version")
);
--> statement-breakpoint
ALTER TABLE "analytics_app_members" ADD CONSTRAINT "analytics_app_members_app_id_analytics_apps_id_fk" FOREIGN KEY ("app_id") REFERENCES "public"."analytics_apps"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "analytics_app_members" ADD CONSTRAINT "analytics_app_members_member_id_analytics_members_id_fk" FOREIGN KEY ("member_id") REFERENCES "public"."analytics_members"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "analytics_app_users" ADD CONSTRAINT "analytics_app_users_app_id_analytics_apps_id_fk" FOREIGN KEY ("app_id") REFERENCES "public"."analytics_apps"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "analytics_apps" ADD CONSTRAINT "analytics_apps_tenant_id_analytics_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."analytics_tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "analytics_apps" ADD CONSTRAINT "analytics_apps_icon_file_id_files_id_fk" FOREIGN KEY ("icon_file_id") REFERENCES "public"."files"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "analytics_apps" ADD CONSTRAINT "analytics_apps_created_by_analytics_members_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."analytics_members"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "analytics_daily_events" ADD CONSTRAINT "analytics_daily_events_app_id_analytics_apps_id_fk" FOREIGN KEY ("app_id") REFERENCES "public"."analytics_apps"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "analytics_daily_sessions" ADD CONSTRAINT "analytics_daily_sessions_app_id_analytics_apps_id_fk" FOREIGN KEY ("app_id") REFERENCES "public"."analytics_apps"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "analytics_drops" ADD CONSTRAINT "analytics_drops_app_id_analytics_apps_id_fk" FOREIGN KEY ("app_id") REFERENCES "public"."analytics_apps"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "analytics_event_groups" ADD CONSTRAINT "analytics_event_groups_app_id_analytics_apps_id_fk" FOREIGN KEY ("app_id") REFERENCES "public"."analytics_apps"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "analytics_events" ADD CONSTRAINT "analytics_events_app_id_analytics_apps_id_fk" FOREIGN KEY ("app_id") REFERENCES "public"."analytics_apps"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "analytics_jobs" ADD CONSTRAINT "analytics_jobs_tenant_id_analytics_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."analytics_tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "analytics_jobs" ADD CONSTRAINT "analytics_jobs_app_id_analytics_apps_id_fk" FOREIGN KEY ("app_id") REFERENCES "public"."analytics_apps"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "analytics_jobs" ADD CONSTRAINT "analytics_jobs_created_by_analytics_members_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."analytics_members"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "analytics_members" ADD CONSTRAINT "analytics_members_tenant_id_analytics_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."analytics_tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "analytics_members" ADD CONSTRAINT "analytics_members_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "analytics_monthly_devices" ADD CONSTRAINT "analytics_monthly_devices_app_id_analytics_apps_id_fk" FOREIGN KEY ("app_id") REFERENCES "public"."analytics_apps"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "analytics_overview_tiles" ADD CONSTRAINT "analytics_overview_tiles_app_id_analytics_apps_id_fk" FOREIGN KEY ("app_id") REFERENCES "public"."analytics_apps"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "analytics_raw_events" ADD CONSTRAINT "analytics_raw_events_app_id_analytics_apps_id_fk" FOREIGN KEY ("app_id") REFERENCES "public"."analytics_apps"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "analytics_request_hashes" ADD CONSTRAINT "analytics_request_hashes_app_id_analytics_apps_id_fk" FOREIGN KEY ("app_id") REFERENCES "public"."analytics_apps"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "analytics_segment_values" ADD CONSTRAINT "analytics_segment_values_app_id_analytics_apps_id_fk" FOREIGN KEY ("app_id") REFERENCES "public"."analytics_apps"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "analytics_tenants" ADD CONSTRAINT "analytics_tenants_deployment_id_deployments_id_fk" FOREIGN KEY ("deployment_id") REFERENCES "public"."deployments"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "analytics_tokens" ADD CONSTRAINT "analytics_tokens_tenant_id_analytics_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."analytics_tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "analytics_tokens" ADD CONSTRAINT "analytics_tokens_owner_id_analytics_members_id_fk" FOREIGN KEY ("owner_id") REFERENCES "public"."analytics_members"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "analytics_versions" ADD CONSTRAINT "analytics_versions_tenant_id_analytics_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."analytics_tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "analytics_app_members_member" ON "analytics_app_members" USING btree ("member_id");--> statement-breakpoint
CREATE INDEX "analytics_apps_tenant" ON "analytics_apps" USING btree ("tenant_id");--> statement-breakpoint
CREATE INDEX "analytics_daily_events_app_day" ON "analytics_daily_events" USING btree ("app_id","day");--> statement-breakpoint
CREATE INDEX "analytics_event_groups_app" ON "analytics_event_groups" USING btree ("app_id");--> statement-breakpoint
CREATE INDEX "analytics_jobs_tenant" ON "analytics_jobs" USING btree ("tenant_id","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "analytics_members_tenant_user" ON "analytics_members" USING btree ("tenant_id","user_id");--> statement-breakpoint
CREATE UNIQUE INDEX "analytics_members_api_key" ON "analytics_members" USING btree ("api_key_hash");--> statement-breakpoint
CREATE UNIQUE INDEX "analytics_overview_tiles_pair" ON "analytics_overview_tiles" USING btree ("app_id","event_key","property");--> statement-breakpoint
CREATE INDEX "analytics_raw_events_device" ON "analytics_raw_events" USING btree ("app_id","device_id");--> statement-breakpoint
CREATE INDEX "analytics_raw_events_received" ON "analytics_raw_events" USING btree ("received_at");--> statement-breakpoint
CREATE INDEX "analytics_request_hashes_received" ON "analytics_request_hashes" USING btree ("received_at");--> statement-breakpoint
CREATE INDEX "analytics_tokens_tenant" ON "analytics_tokens" USING btree ("tenant_id");