// Package lru is a least-recently-used cache bounded in bytes: each value
// is kept with its size, and adding past the bound drops the least
// recently used values first. The solver results kept in memory (package
// solved, bounded in bytes), the keep tables of package engine and the
// finished tables a server keeps (bounded in count: one "byte" each) are
// such caches, and so are the server's rate limiters' buckets (unbounded:
// their owner forgets the least recently used itself, Oldest).
package lru

import "container/list"

// Cache keeps values by key up to a bound on their sizes in all (0 or
// less: no bound), dropping the least recently used first. It is not safe
// for concurrent use: its owner guards it.
type Cache[K comparable, V any] struct {
	max   int64
	size  int64
	order *list.List // of *item[K, V], the most recently used at the front
	items map[K]*list.Element
}

type item[K comparable, V any] struct {
	key  K
	val  V
	size int64
}

// New returns an empty cache bounded by max (0 or less: no bound).
func New[K comparable, V any](max int64) *Cache[K, V] {
	return &Cache[K, V]{max: max, order: list.New(), items: map[K]*list.Element{}}
}

// Get returns the value of key and marks it the most recently used.
func (c *Cache[K, V]) Get(key K) (V, bool) {
	e, ok := c.items[key]
	if !ok {
		var zero V
		return zero, false
	}
	c.order.MoveToFront(e)
	return e.Value.(*item[K, V]).val, true
}

// Add keeps val of size under key as the most recently used, replacing any
// value there, and drops the least recently used values until the sizes
// are within the bound; it returns how many it dropped. A value larger
// than the bound on its own is not kept (and replaces nothing: the old
// value of key is gone).
func (c *Cache[K, V]) Add(key K, val V, size int64) (dropped int) {
	c.Remove(key)
	if c.max > 0 && size > c.max {
		return 0
	}
	c.items[key] = c.order.PushFront(&item[K, V]{key: key, val: val, size: size})
	c.size += size
	for c.max > 0 && c.size > c.max {
		c.drop(c.order.Back())
		dropped++
	}
	return dropped
}

// Remove forgets key, if kept.
func (c *Cache[K, V]) Remove(key K) {
	if e, ok := c.items[key]; ok {
		c.drop(e)
	}
}

func (c *Cache[K, V]) drop(e *list.Element) {
	it := e.Value.(*item[K, V])
	c.order.Remove(e)
	delete(c.items, it.key)
	c.size -= it.size
}

// Oldest returns the least recently used key and its value, without
// marking it used; ok is false when the cache is empty.
func (c *Cache[K, V]) Oldest() (key K, val V, ok bool) {
	e := c.order.Back()
	if e == nil {
		return key, val, false
	}
	it := e.Value.(*item[K, V])
	return it.key, it.val, true
}

// Len returns the number of values kept.
func (c *Cache[K, V]) Len() int { return c.order.Len() }

// Size returns the sizes of the values kept, added up.
func (c *Cache[K, V]) Size() int64 { return c.size }
