CREATE TABLE "app_profile_reviews" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"app_name" text NOT NULL,
	"platform" text NOT NULL,
	"store_url" text NOT NULL,
	"email" text NOT NULL,
	"ip" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE INDEX "app_profile_reviews_created" ON "app_profile_reviews" USING btree ("created_at","id");--> statement-breakpoint
CREATE INDEX "app_profile_reviews_email" ON "app_profile_reviews" USING btree ("email");