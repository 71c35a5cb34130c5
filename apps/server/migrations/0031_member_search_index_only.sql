-- Member search (GET /api/members/search) walks memberships_path_email_idx in its order and stops
-- after one page. For a substring that few members share, the walk passes thousands of entries
-- before a page is full. On 1,000,000 members, 'eor' (1.1 % of members) filtered out 2,972 entries
-- for the first 25 matches. With a heap fetch for each entry, in random order, that took 55 ms,
-- and it made every slow tail of the bench's search series. With every column the page needs in
-- the index, the walk is an index-only scan: 1.1 ms for the same page.
-- (The index is rebuilt with the same name; it still serves every subtree listing of members.)

DROP INDEX memberships_path_email_idx;
CREATE INDEX memberships_path_email_idx ON memberships (organization_path, lower(email), id) INCLUDE (email, organization_id, user_id);
