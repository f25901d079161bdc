package state

import (
	"encoding/json"
	"fmt"
)

// readers decode each state file version chronicle has written, upgrading
// it to the current format. When version 2 comes, readV1 decodes a v1 file
// and passes it through upgradeV1ToV2, and readV2 is added here.
var readers = map[int]func([]byte) (*fileV1, error){
	1: readV1,
}

// decode reads a state file of any known version as the current format.
func decode(path string, data []byte) (*fileV1, error) {
	var head struct {
		Version *int `json:"version"`
	}
	if err := json.Unmarshal(data, &head); err != nil {
		return nil, fmt.Errorf("%s is not a valid state file: %w", path, err)
	}
	if head.Version == nil {
		return nil, fmt.Errorf("%s is not a chronicle state file: it has no \"version\"", path)
	}
	v := *head.Version
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

func readV1(data []byte) (*fileV1, error) {
	var f fileV1
	if err := json.Unmarshal(data, &f); err != nil {
		return nil, err
	}
	if f.Lineage == "" {
		return nil, fmt.Errorf("it has no lineage")
	}
	return &f, nil
}
