CREATE TABLE "analytics_raw_requests" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "analytics_raw_requests_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"app_id" uuid NOT NULL,
	"device_id" text NOT NULL,
	"events" jsonb NOT NULL,
	"first_at" timestamp with time zone NOT NULL,
	"last_at" timestamp with time zone NOT NULL,
	"received_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "analytics_raw_requests" ADD CONSTRAINT "analytics_raw_requests_app_id_analytics_apps_id_fk" FOREIGN KEY ("app_id") REFERENCES "public"."analytics_apps"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "analytics_raw_requests_device" ON "analytics_raw_requests" USING btree ("app_id","device_id");--> statement-breakpoint
CREATE INDEX "analytics_raw_requests_first" ON "analytics_raw_requests" USING btree ("first_at");--> statement-breakpoint
-- The raw events kept so far, one row per event, become one row per request: the events one batch wrote for a device together, in time order.
INSERT INTO "analytics_raw_requests" ("app_id", "device_id", "events", "first_at", "last_at", "received_at")
SELECT "app_id", "device_id",
  jsonb_agg(jsonb_build_object('key', "key", 'count', "count", 'sum', "sum", 'dur', "dur", 'segmentation', "segmentation", 'timestamp', to_char("occurred_at" AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')) ORDER BY "occurred_at", "id"),
  min("occurred_at"), max("occurred_at"), "received_at"
FROM "analytics_raw_events" GROUP BY "app_id", "device_id", "received_at";
