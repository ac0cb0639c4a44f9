package bot

import "container/list"

// lru keeps values by key up to max bytes in all (0: no bound), dropping
// the least recently used first. It is not safe for concurrent use (Tables
// guards it).
type lru[T any] struct {
	max   int64
	size  int64
	order *list.List // front: most recently used
	items map[string]*list.Element
}

type lruItem[T any] struct {
	key  string
	val  T
	size int64
}

func newLRU[T any](max int64) *lru[T] {
	return &lru[T]{max: max, order: list.New(), items: map[string]*list.Element{}}
}

// get returns the value of key and marks it used.
func (c *lru[T]) get(key string) (T, bool) {
	e, ok := c.items[key]
	if !ok {
		var zero T
		return zero, false
	}
	c.order.MoveToFront(e)
	return e.Value.(*lruItem[T]).val, true
}

// add keeps val under key (replacing any value there) and drops the least
// recently used values until the total is within max; it returns how many
// it dropped. A value larger than max on its own is not kept.
func (c *lru[T]) add(key string, val T, size int64) (dropped int) {
	if e, ok := c.items[key]; ok {
		c.size -= e.Value.(*lruItem[T]).size
		c.order.Remove(e)
		delete(c.items, key)
	}
	if c.max > 0 && size > c.max {
		return 0
	}
	c.items[key] = c.order.PushFront(&lruItem[T]{key: key, val: val, size: size})
	c.size += size
	for c.max > 0 && c.size > c.max {
		e := c.order.Back()
		it := e.Value.(*lruItem[T])
		c.order.Remove(e)
		delete(c.items, it.key)
		c.size -= it.size
		dropped++
	}
	return dropped
}
