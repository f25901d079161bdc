package wire

import "bufio"

// ReadLine reads from in up to and with the next newline. The line is in
// in's buffer (valid until the next read) unless it is longer than that:
// the stdio readers hand lines on without copying them.
func ReadLine(in *bufio.Reader) ([]byte, error) {
	line, err := in.ReadSlice('\n')
	if err != bufio.ErrBufferFull {
		return line, err
	}
	long := append([]byte(nil), line...)
	for err == bufio.ErrBufferFull {
		line, err = in.ReadSlice('\n')
		long = append(long, line...)
	}
	return long, err
}
