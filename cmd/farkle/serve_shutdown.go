package main

import (
	"context"
	"errors"
	"net"
)

// drainWhileShutdown shuts the HTTP server down and drains the game
// server as soon as the listener is closed, while the requests in flight
// finish; it returns once both are done.
func (m *serveMain) drainWhileShutdown(ctx context.Context) error {
	closed := make(chan struct{})
	m.http.RegisterOnShutdown(func() { close(closed) })
	done := make(chan error, 1)
	go func() { done <- m.http.Shutdown(ctx) }()
	select {
	case <-closed:
	case err := <-done: // Shutdown ended before calling it (nothing to wait for)
		m.srv.Drain(ctx)
		return ignoreClosed(err)
	}
	m.srv.Drain(ctx)
	return ignoreClosed(<-done)
}

// ignoreClosed drops the error of a listener closed already.
func ignoreClosed(err error) error {
	if errors.Is(err, net.ErrClosed) {
		return nil
	}
	return err
}
