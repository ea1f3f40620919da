-- Token patterns were regular expressions; they are now literal text in which * stands for any
-- text (issue 28). A stored pattern whose only expression syntax is '.*' means the same with '*'.
-- Any other expression cannot be carried over without perhaps widening what its token opens, so
-- that token expires now: its owner sees it expired and makes a new one.
UPDATE "analytics_tokens" AS t SET "expires_at" = now()
WHERE ("expires_at" IS NULL OR "expires_at" > now())
  AND EXISTS (
    SELECT 1
    FROM jsonb_array_elements(t."endpoints") AS e(endpoint)
    CROSS JOIN LATERAL (
      SELECT e.endpoint->>'path' AS pattern
      UNION ALL
      SELECT p.value FROM jsonb_each_text(coalesce(e.endpoint->'params', '{}'::jsonb)) AS p
    ) AS patterns
    WHERE translate(replace(patterns.pattern, '.*', ''), '\^$+?()[]{}|*', '') <> replace(patterns.pattern, '.*', '')
  );
--> statement-breakpoint
UPDATE "analytics_tokens" AS t SET "endpoints" = (
  SELECT jsonb_agg(
    jsonb_build_object(
      'path', replace(e.endpoint->>'path', '.*', '*'),
      'params', coalesce((SELECT jsonb_object_agg(p.key, replace(p.value, '.*', '*')) FROM jsonb_each_text(coalesce(e.endpoint->'params', '{}'::jsonb)) AS p), '{}'::jsonb)
    ) ORDER BY e.i)
  FROM jsonb_array_elements(t."endpoints") WITH ORDINALITY AS e(endpoint, i)
)
WHERE jsonb_array_length(t."endpoints") > 0;
