package dev.agentdouble.fake.internal.claude;

import static org.assertj.core.api.Assertions.assertThat;

import dev.agentdouble.files.PrivateFolder;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Where the real Claude Code 2.1.328 says its messaging socket is, as runs of it here showed
 * (docs/claude-2.1.328-runs.md, parts k and n): a deep folder for temporary files, as a JUnit temp
 * folder in a deep checkout is, gives way to {@code /tmp/cc-socks-<uid>}.
 */
class ClaudeMessagingSocketTest {
  private static final int UID = PrivateFolder.user().orElse(0);

  /** A folder of {@code length} characters. */
  private static String folder(int length) {
    return "/t" + "d".repeat(length - 2);
  }

  @Test
  void theFolderForTemporaryFilesHoldsItsCcSocks() {
    assertThat(ClaudePrint.messagingSocket(Map.of(), 42)).isEqualTo("/tmp/cc-socks/42.sock");
    assertThat(ClaudePrint.messagingSocket(Map.of("TMPDIR", "/w/t1//", "TMP", "/nope"), 7))
        .isEqualTo("/w/t1/cc-socks/7.sock");
    assertThat(ClaudePrint.messagingSocket(Map.of("TMPDIR", "", "TMP", "/w/t1"), 7))
        .isEqualTo("/w/t1/cc-socks/7.sock");
    assertThat(ClaudePrint.messagingSocket(Map.of("TEMP", "/w/t2"), 7))
        .isEqualTo("/w/t2/cc-socks/7.sock");
  }

  @Test
  void xdgRuntimeDirComesFirstWhenSet() {
    // XDG_RUNTIME_DIR=/run/user/77 TMPDIR=/var/tmp -> /run/user/77/cc-socks/9721.sock
    assertThat(
            ClaudePrint.messagingSocket(
                Map.of("XDG_RUNTIME_DIR", "/run/user/77", "TMPDIR", "/var/tmp"), 9721))
        .isEqualTo("/run/user/77/cc-socks/9721.sock");
    // XDG_RUNTIME_DIR= TMPDIR=/var/tmp -> /var/tmp/cc-socks/9738.sock
    assertThat(
            ClaudePrint.messagingSocket(Map.of("XDG_RUNTIME_DIR", "", "TMPDIR", "/var/tmp"), 9738))
        .isEqualTo("/var/tmp/cc-socks/9738.sock");
  }

  @Test
  void theFolderIsMadeAbsoluteAndNormalised() {
    // TMPDIR=/var/tmp/a/../b/./c// -> /var/tmp/b/c/cc-socks/9775.sock
    assertThat(ClaudePrint.messagingSocket(Map.of("TMPDIR", "/var/tmp/a/../b/./c//"), 9775))
        .isEqualTo("/var/tmp/b/c/cc-socks/9775.sock");
    // TMPDIR=rel/x, run in /tmp/tmp.dhKwcJ8oqT -> /tmp/tmp.dhKwcJ8oqT/rel/x/cc-socks/9839.sock
    assertThat(ClaudePrint.messagingSocket(Map.of("TMPDIR", "rel/x"), 9839))
        .isEqualTo(Path.of("").toAbsolutePath().resolve("rel/x/cc-socks/9839.sock").toString());
  }

  @Test
  void aPathOfMoreThan103BytesGivesWayToTheUsersFolderInTmp() {
    // a folder of 82 characters: 82 + /cc-socks/ + 9953.sock = 101 bytes, kept
    assertThat(ClaudePrint.messagingSocket(Map.of("TMPDIR", folder(82)), 9953))
        .isEqualTo(folder(82) + "/cc-socks/9953.sock");
    // 83 + 10 + 10092.sock = 103 bytes, kept
    assertThat(ClaudePrint.messagingSocket(Map.of("TMPDIR", folder(83)), 10092))
        .isEqualTo(folder(83) + "/cc-socks/10092.sock");
    // 85 + 10 + 8850.sock = 104 bytes -> /tmp/cc-socks-0/8850.sock (the run was root's)
    assertThat(ClaudePrint.messagingSocket(Map.of("TMPDIR", folder(85)), 8850))
        .isEqualTo("/tmp/cc-socks-" + UID + "/8850.sock");
    // bytes, not characters: TMPDIR=/tmp/é{46}, 51 characters, 97 bytes ->
    // /tmp/cc-socks-0/13283.sock
    String accented = "/tmp/" + "é".repeat(46);
    assertThat(ClaudePrint.messagingSocket(Map.of("TMPDIR", accented), 13283))
        .isEqualTo("/tmp/cc-socks-" + UID + "/13283.sock");
  }

  @Test
  void underTermuxTheFallbackIsInItsPrefix() {
    // TMPDIR=/tmp/e{90} TERMUX_VERSION=1 PREFIX=/data/x -> /data/x/tmp/cc-socks-0/12059.sock
    String deep = "/tmp/" + "e".repeat(90);
    assertThat(
            ClaudePrint.messagingSocket(
                Map.of("TMPDIR", deep, "TERMUX_VERSION", "1", "PREFIX", "/data/x"), 12059))
        .isEqualTo("/data/x/tmp/cc-socks-" + UID + "/12059.sock");
    // PREFIX= -> /tmp/cc-socks-0/12522.sock
    assertThat(
            ClaudePrint.messagingSocket(
                Map.of("TMPDIR", deep, "TERMUX_VERSION", "1", "PREFIX", ""), 12522))
        .isEqualTo("/tmp/cc-socks-" + UID + "/12522.sock");
  }
}
