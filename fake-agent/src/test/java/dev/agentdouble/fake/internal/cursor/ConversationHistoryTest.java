package dev.agentdouble.fake.internal.cursor;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/**
 * The contents the 2026.10 CLI refuses as a conversation history, in its words: the four cases of
 * cagase/dsh-cursor {@code docs/live-cli-contract.md} §5.3 it shares with the fake, and V8's
 * wording of other JSON syntax errors.
 */
class ConversationHistoryTest {
  private static String problem(String contents) {
    return ConversationHistory.problem(contents).orElse("(accepted)");
  }

  @Test
  void textThatIsNotJsonIsReportedAsNodesJsonParseReportsIt() {
    assertThat(problem("not json at all"))
        .isEqualTo(
            "cannot decode agent.v1.ConversationHistory from JSON: Unexpected token 'o',"
                + " \"not json at all\" is not valid JSON");
  }

  @Test
  void jsonThatIsNotAnObjectIsNotAMessage() {
    assertThat(problem("[]"))
        .isEqualTo("cannot decode message agent.v1.ConversationHistory from JSON: array");
    assertThat(problem("\"hi\""))
        .isEqualTo("cannot decode message agent.v1.ConversationHistory from JSON: \"hi\"");
    assertThat(problem("12")).endsWith("from JSON: 12");
    assertThat(problem("null")).endsWith("from JSON: null");
  }

  @Test
  void messagesMustBeAListOfObjects() {
    assertThat(problem("{\"messages\":{}}"))
        .isEqualTo("cannot decode field agent.v1.ConversationHistory.messages from JSON: object");
    assertThat(problem("{\"messages\":[1]}"))
        .isEqualTo("cannot decode message agent.v1.ConversationHistoryMessage from JSON: 1");
  }

  @Test
  void anEmptyObjectAValidHistoryAndUnknownFieldsAreAccepted() {
    assertThat(problem("{}")).isEqualTo("(accepted)");
    assertThat(problem("{\"messages\":null,\"other\":[1]}")).isEqualTo("(accepted)");
    assertThat(
            problem(
                "{\n  \"messages\": [\n    { \"user\": { \"content\": [ { \"text\": { \"text\":"
                    + " \"Remember PLATYPUS-7731\" } } ] } },\n"
                    + "    { \"assistant\": { \"content\": [ { \"text\": { \"text\": \"OK\" } } ]"
                    + " } }\n  ]\n}\n"))
        .isEqualTo("(accepted)");
  }

  @Test
  void syntaxErrorsCarryV8sPositionLineAndColumn() {
    String prefix = "cannot decode agent.v1.ConversationHistory from JSON: ";
    assertThat(problem("")).isEqualTo(prefix + "Unexpected end of JSON input");
    assertThat(problem("{"))
        .isEqualTo(
            prefix + "Expected property name or '}' in JSON at position 1 (line 1 column 2)");
    assertThat(problem("{\"a\":1,}"))
        .isEqualTo(
            prefix
                + "Expected double-quoted property name in JSON at position 7 (line 1 column 8)");
    assertThat(problem("{\n\"a\" 1}"))
        .isEqualTo(
            prefix + "Expected ':' after property name in JSON at position 6 (line 2 column 5)");
    assertThat(problem("{} x"))
        .isEqualTo(
            prefix
                + "Unexpected non-whitespace character after JSON at position 3 (line 1 column 4)");
    assertThat(problem("{\"messages\": [oops, and more text after it]}"))
        .isEqualTo(
            prefix + "Unexpected token 'o', ...\"ssages\": [oops, and \"... is not valid JSON");
    assertThat(problem("undefined")).isEqualTo(prefix + "\"undefined\" is not valid JSON");
  }
}
