package seal

import (
	"bytes"
	"errors"
	"strings"
	"testing"
)

func TestSealOpens(t *testing.T) {
	s := Random()
	v := s.Seal([]byte(`{"s":"everything","t":"abc"}`))
	got, err := s.Open(v)
	if err != nil || string(got) != `{"s":"everything","t":"abc"}` {
		t.Fatalf("Open(Seal(x)) = %q, %v", got, err)
	}
}

func TestOpenRefusesWhatWasNotSealedSo(t *testing.T) {
	s := Random()
	v := s.Seal([]byte(`{"s":"a","t":"1"}`))
	p, m, _ := strings.Cut(v, ".")
	other := enc.EncodeToString([]byte(`{"s":"b","t":"1"}`))
	cases := map[string]string{
		"payload changed": other + "." + m,
		"mac changed":     p + "." + enc.EncodeToString(bytes.Repeat([]byte{1}, 32)),
		"no mac":          p,
		"empty":           "",
		"not base64":      "!!.??",
		"another hub's":   Random().Seal([]byte(`{"s":"a","t":"1"}`)),
		"mac cut short":   v[:len(v)-2],
		"a plain task id": "786512e2-9e0d-44bd-8f29-789f320fe840",
	}
	for name, value := range cases {
		if _, err := s.Open(value); !errors.Is(err, ErrTampered) {
			t.Errorf("%s: Open(%q) = %v, want ErrTampered", name, value, err)
		}
	}
}

func TestNewWantsALongKey(t *testing.T) {
	if _, err := New([]byte("short")); err == nil {
		t.Fatal("New accepted a 5-byte key")
	}
	s, err := New(bytes.Repeat([]byte{7}, 32))
	if err != nil {
		t.Fatal(err)
	}
	s2, _ := New(bytes.Repeat([]byte{7}, 32))
	if _, err := s2.Open(s.Seal([]byte("x"))); err != nil {
		t.Fatalf("a replica with the same key cannot open: %v", err)
	}
}
