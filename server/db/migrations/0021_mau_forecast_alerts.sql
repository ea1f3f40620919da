CREATE TABLE "mau_daily_samples" (
	"deployment_id" uuid NOT NULL,
	"day" text NOT NULL,
	"used" integer NOT NULL,
	CONSTRAINT "mau_daily_samples_deployment_id_day_pk" PRIMARY KEY("deployment_id","day")
);
--> statement-breakpoint
ALTER TABLE "companies" ADD COLUMN "mau_alerts" jsonb DEFAULT '{"share80":true,"share100":true,"runOut":true}'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "mau_history" ADD COLUMN "alerts_sent" text[] DEFAULT '{}'::text[] NOT NULL;--> statement-breakpoint
ALTER TABLE "mau_history" ADD COLUMN "forecast" jsonb;--> statement-breakpoint
ALTER TABLE "mau_daily_samples" ADD CONSTRAINT "mau_daily_samples_deployment_id_deployments_id_fk" FOREIGN KEY ("deployment_id") REFERENCES "public"."deployments"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
-- The old 90%/100% warnings become the one alert rule: a 90% warning already sent stands for the 80% one.
UPDATE "mau_history" SET "alerts_sent" = CASE WHEN "warned_share" >= 100 THEN ARRAY['share80','share100','runOut'] WHEN "warned_share" >= 90 THEN ARRAY['share80'] ELSE '{}'::text[] END;
