package state

import (
	"bytes"
	"encoding/json"
	"fmt"
)

// readers decode each state file version chronicle has written, upgrading
// it to the current format.
var readers = map[int]func([]byte) (*fileFormat, error){
	1: readV1,
	2: readV2,
	3: readV3,
	4: readV4,
}

// decode reads a state file of any known version as the current format.
func decode(path string, data []byte) (*fileFormat, error) {
	v, err := version(path, data)
	if err != nil {
		return nil, err
	}
	if v > currentVersion {
		return nil, fmt.Errorf("%s has state format version %d, but this chronicle reads versions up to %d: it was written by a newer chronicle; upgrade chronicle to use it", path, v, currentVersion)
	}
	read, ok := readers[v]
	if !ok {
		return nil, fmt.Errorf("%s has unknown state format version %d", path, v)
	}
	f, err := read(data)
	if err != nil {
		return nil, fmt.Errorf("%s (state format version %d): %w", path, v, err)
	}
	return f, nil
}

// version reads the format version of a state file.
func version(path string, data []byte) (int, error) {
	// chronicle writes "version" first: read just that, not the whole
	// file twice (the reader of the version decodes and checks it all).
	dec := json.NewDecoder(bytes.NewReader(data))
	if t, err := dec.Token(); err == nil && t == json.Delim('{') {
		if k, err := dec.Token(); err == nil && k == "version" {
			var v int
			if dec.Decode(&v) == nil {
				return v, nil
			}
		}
	}
	var head struct {
		Version *int `json:"version"`
	}
	if err := json.Unmarshal(data, &head); err != nil {
		return 0, fmt.Errorf("%s is not a valid state file: %w", path, err)
	}
	if head.Version == nil {
		return 0, fmt.Errorf("%s is not a chronicle state file: it has no \"version\"", path)
	}
	return *head.Version, nil
}

func readV4(data []byte) (*fileFormat, error) {
	var f fileFormat
	if err := json.Unmarshal(data, &f); err != nil {
		return nil, err
	}
	if f.Lineage == "" {
		return nil, fmt.Errorf("it has no lineage")
	}
	return &f, nil
}
