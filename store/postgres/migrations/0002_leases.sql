-- Several server nodes on one database: the node that runs a table's bots,
-- turn clock and timeouts holds its lease until the lease expires (by the
-- database's clock). A node renews its leases every second or so; when it
-- dies they expire and another node takes them.
CREATE TABLE leases (
	table_id TEXT PRIMARY KEY REFERENCES tables (id),
	node     TEXT NOT NULL,
	expires  TIMESTAMPTZ NOT NULL
);
CREATE INDEX leases_node ON leases (node);
