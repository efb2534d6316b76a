package dev.agentdouble.fake.internal.cli;

/** The forms of UUID a CLI's argv checks ask for. */
public final class Uuids {
  private Uuids() {}

  /** Any RFC 4122 form: 8-4-4-4-12 hexadecimal digits. */
  public static boolean isUuid(String s) {
    if (s.length() != 36) {
      return false;
    }
    for (int i = 0; i < 36; i++) {
      char c = s.charAt(i);
      boolean dash = i == 8 || i == 13 || i == 18 || i == 23;
      if (dash ? c != '-' : Character.digit(c, 16) < 0) {
        return false;
      }
    }
    return true;
  }

  /** A version-4 UUID: version nibble 4, variant 8, 9, a or b. */
  public static boolean isUuidV4(String s) {
    return isUuid(s) && s.charAt(14) == '4' && "89abAB".indexOf(s.charAt(19)) >= 0;
  }
}
