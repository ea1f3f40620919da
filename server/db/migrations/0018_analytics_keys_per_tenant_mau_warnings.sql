DROP INDEX "analytics_members_api_key";--> statement-breakpoint
ALTER TABLE "mau_history" ADD COLUMN "warned_share" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
CREATE UNIQUE INDEX "analytics_members_api_key" ON "analytics_members" USING btree ("tenant_id","api_key_hash");