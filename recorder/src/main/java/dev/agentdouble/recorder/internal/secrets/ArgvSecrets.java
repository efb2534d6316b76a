package dev.agentdouble.recorder.internal.secrets;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * The secrets a Cursor CLI command line carries: the values of {@code --api-key}, {@code
 * --auth-token} and {@code -H}/{@code --header}, given as {@code --opt value}, {@code --opt=value}
 * or (for {@code -H}) {@code -Hvalue}. Options end at {@code --}.
 */
public final class ArgvSecrets {
  /** Header names that may stand in a replacement as they are. */
  private static final Pattern SAFE_NAME = Pattern.compile("[A-Za-z0-9_.-]{1,64}");

  private ArgvSecrets() {}

  /**
   * One secret-bearing argument.
   *
   * @param index where it is in argv
   * @param kept what stays of the element before the value ({@code --api-key=}, {@code -H}, or
   *     empty when the value is an element of its own)
   * @param value the value
   * @param source {@code api-key}, {@code auth-token}, {@code header:NAME} or {@code header}
   * @param headerName a header's name, when the value is {@code Name: value} with a plain name
   */
  public record Found(
      int index, String kept, String value, String source, Optional<String> headerName) {

    /** The marker standing in for the secret: {@code REDACTED:source}. */
    public String marker() {
      return Secrets.marker(source);
    }

    /** The element with its value redacted: {@code --api-key=REDACTED:api-key}. */
    public String redactedElement() {
      return kept + headerName.map(n -> n + ": ").orElse("") + marker();
    }

    /** The secrets to look for everywhere, at least {@code minLength} characters long. */
    public List<Secrets.Secret> secrets(int minLength) {
      List<Secrets.Secret> list = new ArrayList<>();
      if (headerName.isPresent()) {
        // the whole "Name: value" keeps its name; the value alone, and a credential after an
        // auth scheme ("Bearer xyz"), become the marker
        list.add(new Secrets.Secret(value, headerName.get() + ": " + marker(), source));
        String headerValue = value.substring(value.indexOf(':') + 1).strip();
        list.add(new Secrets.Secret(headerValue, marker(), source));
        int space = headerValue.indexOf(' ');
        if (space > 0) {
          list.add(new Secrets.Secret(headerValue.substring(space + 1).strip(), marker(), source));
        }
      } else {
        list.add(new Secrets.Secret(value, marker(), source));
        if (!value.strip().equals(value)) {
          list.add(new Secrets.Secret(value.strip(), marker(), source));
        }
      }
      list.removeIf(s -> s.value().length() < minLength);
      return list;
    }
  }

  /** The secret-bearing arguments of {@code argv}, in order. */
  public static List<Found> find(List<String> argv) {
    List<Found> found = new ArrayList<>();
    for (int i = 0; i < argv.size(); i++) {
      String a = argv.get(i);
      if (a.equals("--")) {
        break;
      }
      String option = a.startsWith("--") && a.indexOf('=') > 0 ? a.substring(0, a.indexOf('=')) : a;
      String source =
          switch (option) {
            case "--api-key" -> "api-key";
            case "--auth-token" -> "auth-token";
            case "-H", "--header" -> "header";
            default -> a.startsWith("-H") && !a.startsWith("--") ? "header" : null;
          };
      if (source == null) {
        continue;
      }
      int index;
      String kept;
      String value;
      if (!option.equals(a)) {
        index = i;
        kept = option + "=";
        value = a.substring(kept.length());
      } else if (a.startsWith("-H") && a.length() > 2) {
        index = i;
        kept = "-H";
        value = a.substring(2);
      } else if (i + 1 < argv.size()) {
        index = ++i;
        kept = "";
        value = argv.get(index);
      } else {
        continue;
      }
      Optional<String> name = Optional.empty();
      if (source.equals("header")) {
        int colon = value.indexOf(':');
        String candidate = colon > 0 ? value.substring(0, colon).strip() : "";
        if (SAFE_NAME.matcher(candidate).matches()) {
          name = Optional.of(candidate);
          source = "header:" + candidate;
        }
      }
      if (!value.isEmpty()) {
        found.add(new Found(index, kept, value, source, name));
      }
    }
    return found;
  }
}
