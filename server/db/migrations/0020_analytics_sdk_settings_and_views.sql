CREATE TABLE "analytics_daily_views" (
	"app_id" uuid NOT NULL,
	"view" text NOT NULL,
	"day" text NOT NULL,
	"visits" double precision DEFAULT 0 NOT NULL,
	"duration" double precision DEFAULT 0 NOT NULL,
	CONSTRAINT "analytics_daily_views_app_id_view_day_pk" PRIMARY KEY("app_id","view","day")
);
--> statement-breakpoint
ALTER TABLE "analytics_apps" ADD COLUMN "sdk_settings" jsonb DEFAULT '{}'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "analytics_daily_views" ADD CONSTRAINT "analytics_daily_views_app_id_analytics_apps_id_fk" FOREIGN KEY ("app_id") REFERENCES "public"."analytics_apps"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "analytics_daily_views_app_day" ON "analytics_daily_views" USING btree ("app_id","day");