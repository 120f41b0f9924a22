CREATE TABLE "rooming_overrides" (
	"registration_id" integer PRIMARY KEY NOT NULL,
	"room_id" integer NOT NULL,
	"reason" text NOT NULL,
	"rules" jsonb NOT NULL,
	"by_user_id" integer,
	"created_at" timestamp(6) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "rooming_rules" (
	"event_id" integer PRIMARY KEY NOT NULL,
	"rules" jsonb NOT NULL,
	"updated_at" timestamp(6) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "rooms" (
	"id" serial PRIMARY KEY NOT NULL,
	"event_id" integer NOT NULL,
	"name" text NOT NULL,
	"venue" text,
	"floor" text,
	"capacity" integer NOT NULL,
	"type" text NOT NULL,
	"gender_designation" text NOT NULL,
	"accessible" boolean DEFAULT false NOT NULL,
	"quiet" boolean DEFAULT false NOT NULL,
	"min_age" integer,
	"max_age" integer,
	"nights" jsonb,
	"created_at" timestamp(6) with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp(6) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "rooming_overrides" ADD CONSTRAINT "rooming_overrides_registration_id_registrations_id_fk" FOREIGN KEY ("registration_id") REFERENCES "public"."registrations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "rooming_overrides" ADD CONSTRAINT "rooming_overrides_room_id_rooms_id_fk" FOREIGN KEY ("room_id") REFERENCES "public"."rooms"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "rooming_overrides" ADD CONSTRAINT "rooming_overrides_by_user_id_users_id_fk" FOREIGN KEY ("by_user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "rooming_rules" ADD CONSTRAINT "rooming_rules_event_id_events_id_fk" FOREIGN KEY ("event_id") REFERENCES "public"."events"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "rooms" ADD CONSTRAINT "rooms_event_id_events_id_fk" FOREIGN KEY ("event_id") REFERENCES "public"."events"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "rooming_overrides_room_id_index" ON "rooming_overrides" USING btree ("room_id");--> statement-breakpoint
CREATE UNIQUE INDEX "rooms_event_name_idx" ON "rooms" USING btree ("event_id",lower("name"));