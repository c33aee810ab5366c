-- An approver's edit that removes a line deletes it, and the cascade to the receipts' and claims' lines
-- looked the line up by scanning each table (their keys start with the receipt and the claim): 23 ms a
-- removed line on the large data set, and growing with the receipts (finding 54).
CREATE INDEX "order_claim_lines_line_idx" ON "order_claim_lines" USING btree ("line_id");--> statement-breakpoint
CREATE INDEX "order_receipt_lines_line_idx" ON "order_receipt_lines" USING btree ("line_id");
