package dev.agentdouble.recorder.internal.normalise;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The rules the recorder rebases strings by, held to the fake's: a Claude Code tape's cwd also
 * inside a string where it stands as a path (docs/tape-format.md, §4), and nowhere else.
 */
class StringRulesTest {
  static final String CWD = "/home/me/proj";

  /** The message of the real 2.1.328's {@code system/permission_denied} (catalog, runs part k). */
  static String denied(String cwd) {
    return "\"touch in '"
        + cwd
        + "/made.txt' needs approval. The path is inside the working directories for this"
        + " session ('"
        + cwd
        + "'), and Claude Code asks before a shell command creates, changes or removes files"
        + " there.\"";
  }

  static String apply(StringRules rules, String raw) {
    return rules.applyRaw(raw).orElse(raw);
  }

  @Test
  void thePathRuleRebasesTheCwdInsideAStringWhereItStandsAsAPath() {
    StringRules rules = new StringRules().path(CWD, "/workspace");

    assertThat(apply(rules, denied(CWD))).isEqualTo(denied("/workspace"));
    assertThat(apply(rules, "\"" + CWD + "\"")).isEqualTo("\"/workspace\"");
    assertThat(apply(rules, "\"" + CWD + "/a.txt\"")).isEqualTo("\"/workspace/a.txt\"");
    assertThat(apply(rules, "\"" + CWD + " is the cwd\"")).isEqualTo("\"/workspace is the cwd\"");
    assertThat(apply(rules, "\"in " + CWD + "\"")).isEqualTo("\"in /workspace\"");
    assertThat(apply(rules, "\"ls (" + CWD + ")\"")).isEqualTo("\"ls (/workspace)\"");
    // the character that ends one path may start the next
    assertThat(apply(rules, "\"" + CWD + " " + CWD + "/b\""))
        .isEqualTo("\"/workspace /workspace/b\"");
    // a prefix rule's string, then a path further on
    assertThat(apply(rules, "\"" + CWD + "/a in '" + CWD + "'\""))
        .isEqualTo("\"/workspace/a in '/workspace'\"");
  }

  @Test
  void thePathRuleTouchesNoLongerNameNorAPathItEnds() {
    StringRules rules = new StringRules().path(CWD, "/workspace");
    StringRules back = rules.reversed();

    for (String raw :
        List.of(
            "\"" + CWD + "foo\"",
            "\"x" + CWD + "\"",
            "\"cd x" + CWD + "/a\"",
            "\"in " + CWD + "foo/a\"",
            "\"in " + CWD + ".\"",
            "\"in '" + CWD + "\\\"\"",
            "\"" + CWD + "\\n\"")) {
      assertThat(rules.applyRaw(raw)).as(raw).isEmpty();
    }
    for (String raw :
        List.of(
            "\"/workspacefoo\"",
            "\"x/workspace\"",
            "\"in '/workspacefoo/a'\"",
            "\"cd x/workspace/a\"",
            "\"see /workspace:1\"")) {
      assertThat(back.applyRaw(raw)).as(raw).isEmpty();
    }
  }

  @Test
  void reversedThePathRuleGivesEveryStringBack() {
    StringRules rules = new StringRules().path(CWD, "/workspace").exact("abcdefgh-1", "sid");
    StringRules back = rules.reversed();

    for (String raw :
        List.of(denied(CWD), "\"" + CWD + "\"", "\"(" + CWD + ") '" + CWD + "/x' " + CWD + "\"")) {
      String written = apply(rules, raw);
      assertThat(written).doesNotContain(CWD);
      assertThat(apply(back, written)).isEqualTo(raw);
    }
    // a tape that names the canonical folder in its text does not come back: the cwd stays
    String already = "\"see '/workspace/x' in '" + CWD + "'\"";
    assertThat(apply(back, apply(rules, already))).isNotEqualTo(already);
  }

  @Test
  void aPrefixRuleKeepsTheFolderInsideAString() {
    StringRules rules = new StringRules().prefix(CWD, "/workspace");

    assertThat(rules.applyRaw(denied(CWD))).isEmpty();
    assertThat(rules.inTextNeedles()).isEmpty();
    assertThat(apply(rules, "\"" + CWD + "/a\"")).isEqualTo("\"/workspace/a\"");
  }

  @Test
  void aRelativeFolderOrTheRootHasNoPathRule() {
    assertThat(new StringRules().path("proj", "/workspace").inTextNeedles()).isEmpty();
    assertThat(new StringRules().path("/", "/workspace").inTextNeedles()).isEmpty();
    assertThat(new StringRules().path(CWD, "/").reversed().inTextNeedles()).isEmpty();
  }

  @Test
  void thePreChecksFindAPathInsideAStringWithoutMakingOne() {
    StringRules rules = new StringRules().path(CWD, "/workspace");
    byte[] line =
        ("{\"type\":\"system\",\"message\":" + denied(CWD) + "}").getBytes(StandardCharsets.UTF_8);
    int start = "{\"type\":\"system\",\"message\":".length();

    assertThat(rules.mayMatch(line, start, line.length - 1)).isTrue();
    assertThat(rules.mayMatch(line, 8, 16)).as("\"system\"").isFalse();
    assertThat(StringRules.mayOccurInText(line, rules.inTextNeedles())).isTrue();
    byte[] other = "{\"a\":\"cd x/home/me/proj\"}".getBytes(StandardCharsets.UTF_8);
    assertThat(StringRules.mayOccurInText(other, rules.inTextNeedles())).isFalse();
    assertThat(new StringRules().prefix(CWD, "/workspace").mayMatch(line, start, line.length - 1))
        .isFalse();
  }
}
