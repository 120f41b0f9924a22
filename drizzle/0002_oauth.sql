CREATE TABLE "authorization_codes" (
	"code_digest" text PRIMARY KEY NOT NULL,
	"client_id" text NOT NULL,
	"redirect_uri" text NOT NULL,
	"code_challenge" text NOT NULL,
	"user_id" integer NOT NULL,
	"sign_in_method" text NOT NULL,
	"expires_at" timestamp(6) with time zone NOT NULL,
	"used_at" timestamp(6) with time zone,
	"mobile_token_id" integer,
	"created_at" timestamp(6) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "oauth_clients" (
	"client_id" text PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"redirect_uris" text[] NOT NULL,
	"created_at" timestamp(6) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "sign_in_requests" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"method" text NOT NULL,
	"email" text,
	"client_id" text NOT NULL,
	"redirect_uri" text NOT NULL,
	"code_challenge" text NOT NULL,
	"state" text,
	"code_digest" text,
	"attempts" integer DEFAULT 0 NOT NULL,
	"upstream_state_digest" text,
	"upstream_sealed" text,
	"expires_at" timestamp(6) with time zone NOT NULL,
	"consumed_at" timestamp(6) with time zone,
	"ip" text,
	"created_at" timestamp(6) with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "sign_in_requests_upstream_state_digest_unique" UNIQUE("upstream_state_digest")
);
--> statement-breakpoint
ALTER TABLE "authorization_codes" ADD CONSTRAINT "authorization_codes_client_id_oauth_clients_client_id_fk" FOREIGN KEY ("client_id") REFERENCES "public"."oauth_clients"("client_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "authorization_codes" ADD CONSTRAINT "authorization_codes_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "authorization_codes" ADD CONSTRAINT "authorization_codes_mobile_token_id_mobile_tokens_id_fk" FOREIGN KEY ("mobile_token_id") REFERENCES "public"."mobile_tokens"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sign_in_requests" ADD CONSTRAINT "sign_in_requests_client_id_oauth_clients_client_id_fk" FOREIGN KEY ("client_id") REFERENCES "public"."oauth_clients"("client_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "authorization_codes_expires_at_index" ON "authorization_codes" USING btree ("expires_at");--> statement-breakpoint
CREATE INDEX "sign_in_requests_expires_at_index" ON "sign_in_requests" USING btree ("expires_at");--> statement-breakpoint
CREATE INDEX "sign_in_requests_email_created_at_index" ON "sign_in_requests" USING btree ("email","created_at");