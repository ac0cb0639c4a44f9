-- When a table's last action was stored, as the SQLite store's migration
-- 0023: the most common write sets acted, which no index holds, and updated,
-- which three do, only when it is 2 s old (for the nodes of the release
-- before, which read only updated, during a rolling upgrade). With the room fillfactor leaves in each page,
-- PostgreSQL then writes an action's new row version beside the old one
-- (a heap-only update) and adds no entry to any of the table's indexes.
ALTER TABLE tables ADD COLUMN acted BIGINT NOT NULL DEFAULT 0;
ALTER TABLE tables SET (fillfactor = 70);
