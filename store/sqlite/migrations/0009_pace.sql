-- Games at your own pace: a table's pace ('' live; '1h', '12h', '1d', '3d':
-- the time each seat has for a turn). Its seats' clocks hold the time; the
-- pace says the table is not played in one sitting.
ALTER TABLE tables ADD COLUMN pace TEXT NOT NULL DEFAULT '';
