package dev.agentdouble.fake.internal.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.agentdouble.fake.internal.profile.BuiltIn;
import dev.agentdouble.fake.internal.profile.Profile;
import java.util.List;

/** Test helpers: parse a command line and insist on the kind of result. */
public final class Argv {
  private Argv() {}

  public static CliArgs parsed(String... argv) {
    return parsed(BuiltIn.surface(BuiltIn.CLI_2026_10), argv);
  }

  public static CliArgs parsed(Profile.Surface surface, String... argv) {
    ParseResult result = CliParser.parse(CliParser.DEFAULT_PROGRAM, List.of(argv), surface);
    assertThat(result).as("parse of %s", List.of(argv)).isInstanceOf(ParseResult.Parsed.class);
    return ((ParseResult.Parsed) result).args();
  }

  public static String usageError(String... argv) {
    return usageError(BuiltIn.surface(BuiltIn.CLI_2026_10), argv);
  }

  public static String usageError(Profile.Surface surface, String... argv) {
    ParseResult result = CliParser.parse(CliParser.DEFAULT_PROGRAM, List.of(argv), surface);
    assertThat(result).as("parse of %s", List.of(argv)).isInstanceOf(ParseResult.UsageError.class);
    String stderr = ((ParseResult.UsageError) result).stderr();
    assertThat(stderr).endsWith("\n");
    return stderr;
  }
}
