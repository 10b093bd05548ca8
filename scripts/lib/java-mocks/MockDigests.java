package com.github.agent_hosting.agenthosting.testing;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.LinkedHashMap;
import java.util.Map;

/** The image digests under the mocks, in place of a registry: the digest given for an image, else one derived from it. */
public final class MockDigests {
    private MockDigests() {}

    /** The digest the mocks give an image no digest is given for: {@code sha256:} and the SHA-256 of its text. */
    public static String derivedDigest(String image) {
        try {
            StringBuilder hex = new StringBuilder("sha256:");
            for (byte b : MessageDigest.getInstance("SHA-256").digest(image.getBytes(StandardCharsets.UTF_8))) hex.append(String.format("%02x", b));
            return hex.toString();
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    /** The image's name as written, without its tag (a colon after the last slash) and digest (after the @). */
    private static String imageName(String image) {
        int at = image.indexOf('@');
        String name = at == -1 ? image : image.substring(0, at);
        int colon = name.indexOf(':', name.lastIndexOf('/') + 1);
        return colon == -1 ? name : name.substring(0, colon);
    }

    /** getImageDigest's answer: a digest-form image's own digest, else the one given, else derived; the image pinned to it. */
    static Map<String, Object> imageDigest(String image, Map<String, String> digests) {
        int at = image.indexOf('@');
        String given = digests == null ? null : digests.get(image);
        String digest = at != -1 ? image.substring(at + 1) : given != null ? given : derivedDigest(image);
        Map<String, Object> answer = new LinkedHashMap<>();
        answer.put("image", image);
        answer.put("digest", digest);
        answer.put("pinnedImage", imageName(image) + "@" + digest);
        return answer;
    }
}
