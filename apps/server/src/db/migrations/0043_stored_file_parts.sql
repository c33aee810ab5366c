CREATE TABLE "stored_file_parts" (
	"file_id" text NOT NULL,
	"part" integer NOT NULL,
	"data" "bytea" NOT NULL,
	CONSTRAINT "stored_file_parts_file_id_part_pk" PRIMARY KEY("file_id","part")
);
--> statement-breakpoint
ALTER TABLE "stored_file_parts" ADD CONSTRAINT "stored_file_parts_file_id_stored_files_id_fk" FOREIGN KEY ("file_id") REFERENCES "public"."stored_files"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
-- Files stored before: their bytes move to parts of 256 kB (FILE_PART_BYTES in lib/files.ts), numbered from 0,
-- before the column goes (decision 0119).
INSERT INTO "stored_file_parts" ("file_id", "part", "data")
SELECT f."id", p.n, substring(f."data" from p.n * 262144 + 1 for 262144)
FROM "stored_files" f, generate_series(0, (length(f."data") - 1) / 262144) AS p(n)
WHERE length(f."data") > 0;--> statement-breakpoint
ALTER TABLE "stored_files" DROP COLUMN "data";