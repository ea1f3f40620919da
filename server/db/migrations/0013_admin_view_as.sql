ALTER TABLE "sessions" ADD COLUMN "view_as_user_id" uuid;--> statement-breakpoint
ALTER TABLE "sessions" ADD COLUMN "view_as_company_id" uuid;--> statement-breakpoint
ALTER TABLE "sessions" ADD CONSTRAINT "sessions_view_as_user_id_users_id_fk" FOREIGN KEY ("view_as_user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sessions" ADD CONSTRAINT "sessions_view_as_company_id_companies_id_fk" FOREIGN KEY ("view_as_company_id") REFERENCES "public"."companies"("id") ON DELETE set null ON UPDATE no action;