package mcp

import (
	"context"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// The SDK's connection takes the end of its input for the end of the
// session: from then on it cancels the calls in flight and refuses to
// write their responses, so a client that sends its requests and closes
// stdin (a harness, a shell pipe) hears nothing, though an apply_edits
// may have written its files. A drainingTransport holds the end of input
// back from the SDK until every call read before it has been answered.

// A drainingTransport is a Transport whose connection reports the end of
// its input (or any read error, which ends the session as well) only once
// every call it has passed on has had its response written.
type drainingTransport struct {
	sdk.Transport
	// draining, when set (by tests), is called once by a Read that met the
	// end of input with calls unanswered, before it waits for them.
	draining func()
}

func (t *drainingTransport) Connect(ctx context.Context) (sdk.Connection, error) {
	c, err := t.Transport.Connect(ctx)
	if err != nil {
		return nil, err
	}
	return &drainingConn{Connection: c, draining: t.draining, unanswered: map[jsonrpc.ID]struct{}{},
		answered: make(chan struct{}, 1), closed: make(chan struct{})}, nil
}

// A drainingConn keeps the ids of the calls read and not yet answered.
// The SDK answers every call it reads once (an error response included),
// save one that reuses the id of a call in flight, which it drops
// unanswered: a set of ids, not a count, so that such a call is not
// waited for in vain.
//
// The SDK tells its own stdio connection the negotiated protocol version
// through an unexported method, which a wrapper cannot pass on; the one
// thing it does with it is refuse JSON-RPC batches from 2025-06-18 on, so
// behind a drainingConn a batch is answered under every version.
type drainingConn struct {
	sdk.Connection
	draining func()

	mu         sync.Mutex
	unanswered map[jsonrpc.ID]struct{}

	answered  chan struct{} // a token after each response written
	closed    chan struct{} // closed by Close
	closeOnce sync.Once
}

func (c *drainingConn) Read(ctx context.Context) (jsonrpc.Message, error) {
	msg, err := c.Connection.Read(ctx)
	if err == nil {
		if req, ok := msg.(*jsonrpc.Request); ok && req.IsCall() {
			c.mu.Lock()
			c.unanswered[req.ID] = struct{}{}
			c.mu.Unlock()
		}
		return msg, nil
	}
	// The SDK closes the connection once it is idle after a Close (a
	// signal) or a broken output; the responses it refused then would be
	// waited for in vain.
	for first := true; ; first = false {
		c.mu.Lock()
		n := len(c.unanswered)
		c.mu.Unlock()
		if n == 0 {
			return nil, err
		}
		if first && c.draining != nil {
			c.draining()
		}
		select {
		case <-c.answered:
		case <-c.closed:
			return nil, err
		case <-ctx.Done():
			return nil, err
		}
	}
}

func (c *drainingConn) Write(ctx context.Context, msg jsonrpc.Message) error {
	err := c.Connection.Write(ctx, msg)
	if resp, ok := msg.(*jsonrpc.Response); ok {
		// Answered even when the write failed: that response will not come
		// again, and the SDK closes a connection whose output broke.
		c.mu.Lock()
		delete(c.unanswered, resp.ID)
		c.mu.Unlock()
		select {
		case c.answered <- struct{}{}:
		default:
		}
	}
	return err
}

func (c *drainingConn) Close() error {
	c.closeOnce.Do(func() { close(c.closed) })
	return c.Connection.Close()
}

// stopWith returns a middleware that cancels each request's context when
// ctx is done. The SDK keeps the context Run is given from its handlers,
// so that without it a signal would wait for a call in flight (an apply
// waiting for the root's lock, say) instead of stopping it before its
// commit.
func stopWith(ctx context.Context) sdk.Middleware {
	return func(next sdk.MethodHandler) sdk.MethodHandler {
		return func(rctx context.Context, method string, req sdk.Request) (sdk.Result, error) {
			rctx, cancel := context.WithCancelCause(rctx)
			defer cancel(nil)
			defer context.AfterFunc(ctx, func() { cancel(context.Cause(ctx)) })()
			return next(rctx, method, req)
		}
	}
}
