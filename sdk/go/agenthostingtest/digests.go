package agenthostingtest

import (
	"crypto/sha256"
	"encoding/hex"
	"strings"
)

// DerivedDigest is the digest the mocks give an image no digest is given for: "sha256:" and the SHA-256 of its text.
func DerivedDigest(image string) string {
	sum := sha256.Sum256([]byte(image))
	return "sha256:" + hex.EncodeToString(sum[:])
}

// imageName is the image's name as written, without its tag (a colon after the last slash) and digest (after the @).
func imageName(image string) string {
	name, _, _ := strings.Cut(image, "@")
	slash := strings.LastIndex(name, "/")
	if colon := strings.Index(name[slash+1:], ":"); colon != -1 {
		return name[:slash+1+colon]
	}
	return name
}

// ImageDigest is getImageDigest's answer under the mocks: a digest-form image's own digest, else the one digests
// gives for the image, else one derived from it; with the image pinned to it (name@sha256:...).
func ImageDigest(image string, digests map[string]string) map[string]interface{} {
	digest, given := digests[image]
	if _, own, found := strings.Cut(image, "@"); found {
		digest = own
	} else if !given {
		digest = DerivedDigest(image)
	}
	return map[string]interface{}{"image": image, "digest": digest, "pinnedImage": imageName(image) + "@" + digest}
}
