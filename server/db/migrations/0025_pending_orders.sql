ALTER TABLE "users" ADD COLUMN "pending_order" jsonb;--> statement-breakpoint
ALTER TABLE "subscriptions" ADD COLUMN "pending_reminders_sent" integer DEFAULT 0 NOT NULL;