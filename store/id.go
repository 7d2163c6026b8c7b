package store

import (
	"crypto/rand"
	"encoding/binary"
	"sync"
	"time"
)

// crockford is Crockford's base 32: no I, L, O or U, and its order is the byte order, so
// encoded ids sort as their values do.
const crockford = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"

var ids struct {
	sync.Mutex
	ms   uint64
	rand [2]uint64 // 80 random bits: rand[0] holds the high 16
}

// newID returns a 26-character id in the ULID layout: 48 bits of Unix milliseconds, then 80
// random bits. Ids sort by creation time, so the newest runs come first in id order; within
// one millisecond this process counts up from the last id instead of drawing again, so even
// they keep their order.
func newID(t time.Time) string {
	ids.Lock()
	defer ids.Unlock()
	ms := uint64(t.UnixMilli())
	if ms <= ids.ms { // the same millisecond, or the clock stepped back
		ms = ids.ms
		ids.rand[1]++
		if ids.rand[1] == 0 {
			ids.rand[0] = (ids.rand[0] + 1) & 0xffff
		}
	} else {
		var b [10]byte
		rand.Read(b[:])
		ids.rand[0] = uint64(binary.BigEndian.Uint16(b[:2]))
		ids.rand[1] = binary.BigEndian.Uint64(b[2:])
	}
	ids.ms = ms
	// 128 bits as 26 base-32 digits, the first holding the top 3 bits (0 for 2^48 ms).
	hi := ms<<16 | ids.rand[0] // 64 bits: time and the top of the randomness
	lo := ids.rand[1]
	var out [26]byte
	for i := 25; i >= 0; i-- {
		out[i] = crockford[lo&31]
		lo = lo>>5 | hi<<59
		hi >>= 5
	}
	return string(out[:])
}
