ALTER TABLE "sessions" ADD COLUMN "server_id" uuid;--> statement-breakpoint
ALTER TABLE "sessions" ADD COLUMN "sign_in_link_hash" text;--> statement-breakpoint
ALTER TABLE "sessions" ADD CONSTRAINT "sessions_sign_in_link_hash_unique" UNIQUE("sign_in_link_hash");