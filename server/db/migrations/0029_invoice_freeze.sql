CREATE TABLE "credit_notes" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"company_id" uuid NOT NULL,
	"transaction_id" uuid NOT NULL,
	"number" text NOT NULL,
	"total" numeric(14, 2) NOT NULL,
	"document" jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "credit_notes_number_unique" UNIQUE("number")
);
--> statement-breakpoint
CREATE TABLE "document_counters" (
	"series" text PRIMARY KEY NOT NULL,
	"last_number" integer NOT NULL
);
--> statement-breakpoint
ALTER TABLE "transactions" ADD COLUMN "invoice" jsonb;--> statement-breakpoint
ALTER TABLE "credit_notes" ADD CONSTRAINT "credit_notes_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "credit_notes" ADD CONSTRAINT "credit_notes_transaction_id_transactions_id_fk" FOREIGN KEY ("transaction_id") REFERENCES "public"."transactions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "credit_notes_transaction" ON "credit_notes" USING btree ("transaction_id");--> statement-breakpoint
-- Stand-in numbers used to be random: a number found twice stays on the earliest row, later rows get their id appended, so the unique index can be built.
UPDATE "transactions" t SET "invoice_number" = t."invoice_number" || '-' || left(t."id"::text, 8)
WHERE EXISTS (SELECT 1 FROM "transactions" o WHERE o."invoice_number" = t."invoice_number" AND (o."created_at", o."id") < (t."created_at", t."id"));--> statement-breakpoint
CREATE UNIQUE INDEX "transactions_invoice_number" ON "transactions" USING btree ("invoice_number");--> statement-breakpoint
CREATE FUNCTION "transactions_keep_issued_invoice"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF OLD."invoice" IS NOT NULL AND (
    NEW."invoice" IS DISTINCT FROM OLD."invoice" OR NEW."invoice_number" IS DISTINCT FROM OLD."invoice_number"
    OR NEW."subtotal" IS DISTINCT FROM OLD."subtotal" OR NEW."discount" IS DISTINCT FROM OLD."discount" OR NEW."tax" IS DISTINCT FROM OLD."tax"
    OR NEW."total" IS DISTINCT FROM OLD."total" OR NEW."currency" IS DISTINCT FROM OLD."currency" OR NEW."billed_at" IS DISTINCT FROM OLD."billed_at"
  ) THEN
    RAISE EXCEPTION 'an issued invoice cannot be changed: a credit note corrects it';
  END IF;
  RETURN NEW;
END
$$;--> statement-breakpoint
CREATE TRIGGER "transactions_invoice_frozen" BEFORE UPDATE ON "transactions" FOR EACH ROW EXECUTE FUNCTION "transactions_keep_issued_invoice"();--> statement-breakpoint
CREATE FUNCTION "credit_notes_refuse_change"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'an issued credit note cannot be changed';
END
$$;--> statement-breakpoint
CREATE TRIGGER "credit_notes_frozen" BEFORE UPDATE ON "credit_notes" FOR EACH ROW EXECUTE FUNCTION "credit_notes_refuse_change"();
