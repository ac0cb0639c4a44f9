package sqlstore

import (
	"context"
	"database/sql"
	"sync"
	"time"
)

// Prepared keeps the statements that exec, row and all run prepared, so
// that a statement run again is neither parsed nor planned again: once a
// pool, and by database/sql once on each of the pool's connections. On
// SQLite the parse and plan were 7% of a node's CPU at full load (the
// statements of a new table, a join, a session's lookup); PostgreSQL's
// driver keeps prepared statements of its own, so only SQLite keeps
// these.
//
// A statement first met in a transaction cannot be prepared on the pool
// there (SQLite's writer has one connection, which the transaction
// holds): it runs unprepared, and is prepared in the background once the
// connection is free, for its next run.
type Prepared struct {
	mu      sync.RWMutex
	m       map[preparedKey]*sql.Stmt
	pending map[preparedKey]bool
	closed  bool
	wg      sync.WaitGroup // the background prepares
}

type preparedKey struct {
	pool *sql.DB
	q    string
}

// maxPrepared bounds the statements kept (the store has about two
// hundred, and a server runs far fewer); past it a statement runs
// unprepared, as all did before.
const maxPrepared = 256

// NewPrepared returns an empty cache.
func NewPrepared() *Prepared {
	return &Prepared{m: make(map[preparedKey]*sql.Stmt), pending: make(map[preparedKey]bool)}
}

// Len is the number of statements kept.
func (p *Prepared) Len() int {
	p.mu.RLock()
	defer p.mu.RUnlock()
	return len(p.m)
}

// Wait waits for the statements being prepared in the background.
func (p *Prepared) Wait() { p.wg.Wait() }

// Close waits for the statements being prepared, closes those kept and
// keeps no more.
func (p *Prepared) Close() error {
	p.Wait()
	p.mu.Lock()
	defer p.mu.Unlock()
	p.closed = true
	var first error
	for k, s := range p.m {
		if err := s.Close(); err != nil && first == nil {
			first = err
		}
		delete(p.m, k)
	}
	return first
}

// stmt returns q prepared for x, or nil for x to run q as it is: when the
// store keeps no statements, q is long (a statement of many rows or
// arguments, whose text varies), x is neither a pool nor a transaction
// of W (every transaction of the store is), the cache is full, or q is
// not prepared yet in a transaction.
func (db *DB) stmt(ctx context.Context, x querier, q string) *sql.Stmt {
	p := db.Prepared
	if p == nil || len(q) > maxCached {
		return nil
	}
	switch x := x.(type) {
	case *sql.DB:
		if s := p.lookup(x, q); s != nil {
			return s
		}
		return p.prepare(ctx, x, q, db.D.SQL(q))
	case *sql.Tx:
		if s := p.lookup(db.W, q); s != nil {
			return x.StmtContext(ctx, s)
		}
		p.later(db.W, q, db.D.SQL(q))
	}
	return nil
}

func (p *Prepared) lookup(pool *sql.DB, q string) *sql.Stmt {
	p.mu.RLock()
	s := p.m[preparedKey{pool, q}]
	p.mu.RUnlock()
	return s
}

// prepare prepares text (q as the database reads it) on pool and keeps
// it, returning nil if it cannot (the caller then runs text itself, and
// meets the same error).
func (p *Prepared) prepare(ctx context.Context, pool *sql.DB, q, text string) *sql.Stmt {
	k := preparedKey{pool, q}
	p.mu.RLock()
	full := p.closed || len(p.m) >= maxPrepared
	p.mu.RUnlock()
	if full {
		return nil
	}
	s, err := pool.PrepareContext(ctx, text)
	if err != nil {
		return nil
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if had := p.m[k]; had != nil || p.closed || len(p.m) >= maxPrepared {
		s.Close()
		return had
	}
	p.m[k] = s
	return s
}

// later prepares q on pool in the background, once.
func (p *Prepared) later(pool *sql.DB, q, text string) {
	k := preparedKey{pool, q}
	p.mu.Lock()
	if p.closed || p.pending[k] || len(p.m)+len(p.pending) >= maxPrepared {
		p.mu.Unlock()
		return
	}
	p.pending[k] = true
	p.wg.Add(1)
	p.mu.Unlock()
	go func() {
		defer p.wg.Done()
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		p.prepare(ctx, pool, q, text)
		p.mu.Lock()
		delete(p.pending, k)
		p.mu.Unlock()
	}()
}
