package store

import (
	"fmt"
	"sync"
	"testing"
)

// TestCacheGetPut: a key not stored is a miss; a stored reply comes back byte for byte;
// Put keeps the first reply for a key unless it replaces (--cache refresh).
func TestCacheGetPut(t *testing.T) {
	s, _ := open(t)
	c := s.Cache()
	if _, ok, err := c.Get("k"); ok || err != nil {
		t.Fatalf("an empty cache: ok %v, err %v", ok, err)
	}
	for _, step := range []struct {
		reply   string
		replace bool
		want    string
	}{
		{`{"a":1}`, false, `{"a":1}`},
		{`{"a":2}`, false, `{"a":1}`}, // INSERT OR IGNORE: the first answer stays
		{`{"a":3}`, true, `{"a":3}`},  // refresh writes over it
		{``, true, ``},                // an empty reply is a reply
	} {
		if err := c.Put("k", []byte(step.reply), step.replace); err != nil {
			t.Fatal(err)
		}
		got, ok, err := c.Get("k")
		if !ok || err != nil || string(got) != step.want {
			t.Errorf("after Put(%q, replace %v): %q %v %v, want %q", step.reply, step.replace, got, ok, err, step.want)
		}
	}
}

// TestCacheKeptAcrossReopen: the cache is in the store's file, there for the next run.
func TestCacheKeptAcrossReopen(t *testing.T) {
	s, path := open(t)
	if err := s.Cache().Put("k", []byte("reply"), false); err != nil {
		t.Fatal(err)
	}
	s.Close()
	s2, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer s2.Close()
	if got, ok, err := s2.Cache().Get("k"); !ok || err != nil || string(got) != "reply" {
		t.Errorf("after reopening: %q %v %v", got, ok, err)
	}
}

// TestCacheConcurrentStores: runs in several processes (each its own Store on one file,
// as benchy run beside benchy serve), each with several workers, write and read one cache
// at once, the same keys and different ones, with no "database is locked": the writers wait on busy_timeout.
func TestCacheConcurrentStores(t *testing.T) {
	_, path := open(t)
	const stores, keys = 4, 200
	var wg sync.WaitGroup
	errs := make(chan error, stores*keys*2)
	for i := range stores {
		st, err := Open(path)
		if err != nil {
			t.Fatal(err)
		}
		defer st.Close()
		c := st.Cache()
		for w := range 4 { // a run's workers share its Store
			wg.Go(func() {
				for k := w; k < keys; k += 4 {
					key := fmt.Sprintf("shared-%d", k)
					if err := c.Put(key, []byte(key), false); err != nil {
						errs <- err
					}
					if err := c.Put(fmt.Sprintf("own-%d-%d", i, k), []byte("x"), true); err != nil {
						errs <- err
					}
					if got, ok, err := c.Get(key); err != nil || !ok || string(got) != key {
						errs <- fmt.Errorf("Get(%s) = %q %v %v", key, got, ok, err)
					}
				}
			})
		}
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
}
