CREATE TABLE "discount_uses" (
	"subscription_id" uuid NOT NULL,
	"code" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "discount_uses_subscription_id_code_pk" PRIMARY KEY("subscription_id","code")
);
--> statement-breakpoint
ALTER TABLE "subscriptions" ADD COLUMN "checkout_transaction_id" text;--> statement-breakpoint
ALTER TABLE "subscriptions" ADD COLUMN "pending_change" jsonb;--> statement-breakpoint
ALTER TABLE "discount_uses" ADD CONSTRAINT "discount_uses_subscription_id_subscriptions_id_fk" FOREIGN KEY ("subscription_id") REFERENCES "public"."subscriptions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "subscriptions" ADD CONSTRAINT "subscriptions_checkout_transaction_id_unique" UNIQUE("checkout_transaction_id");