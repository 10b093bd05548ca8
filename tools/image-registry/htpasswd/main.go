// htpasswd writes one line of an htpasswd file, `user:<bcrypt hash>`, as
// the distribution registry's htpasswd authentication reads it (bcrypt
// only). The password comes on stdin, so it never appears in a process
// list. The cost is bcrypt's minimum: the file serves test registries.
//
// Usage: htpasswd <user> < password
package main

import (
	"fmt"
	"io"
	"os"
	"strings"

	"golang.org/x/crypto/bcrypt"
)

func main() {
	if len(os.Args) != 2 || os.Args[1] == "" || strings.Contains(os.Args[1], ":") {
		fmt.Fprintln(os.Stderr, "usage: htpasswd <user without ':'> < password")
		os.Exit(2)
	}
	password, err := io.ReadAll(os.Stdin)
	if err != nil {
		fmt.Fprintln(os.Stderr, "htpasswd: reading the password:", err)
		os.Exit(1)
	}
	hash, err := bcrypt.GenerateFromPassword(password, bcrypt.MinCost)
	if err != nil {
		fmt.Fprintln(os.Stderr, "htpasswd:", err)
		os.Exit(1)
	}
	fmt.Printf("%s:%s\n", os.Args[1], hash)
}
