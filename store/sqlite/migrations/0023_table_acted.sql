-- When a table's last action was stored, if it changed neither the status
-- nor the seats (Unix nanoseconds; 0: none since the last such change).
-- The most common write sets it instead of updated, which the index
-- (status, updated) holds: an action then moves no index entry. A table's
-- time of last change is the later of the two.
ALTER TABLE tables ADD COLUMN acted INTEGER NOT NULL DEFAULT 0;
