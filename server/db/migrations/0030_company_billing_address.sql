ALTER TABLE "companies" ADD COLUMN "billing_address" text;--> statement-breakpoint
ALTER TABLE "companies" ADD COLUMN "billing_postal_code" text;--> statement-breakpoint
ALTER TABLE "companies" ADD COLUMN "billing_city" text;