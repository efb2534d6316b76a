package dev.agentdouble.fake.internal.profile;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.RecordComponent;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * A step of the build, not of a run: Java source that makes a value again, as {@link
 * ResourceCompiler} writes the profiles the interpreter read into {@value
 * PackageResource#COMPILED}. It knows values, not CLIs: records (by their canonical constructors),
 * enums, strings, booleans, whole numbers, {@link Optional}, lists, sets, maps, and the one catalog
 * a profile names ({@link ModelCatalog#resource}, read when first asked, as the interpreter's is).
 * A value of any other kind fails the build, which names it.
 */
final class SnapshotWriter {
  /**
   * A record whose expression is longer is made by a method of its own (javac's 64 KB a method).
   */
  private static final int INLINE = 1_500;

  private final StringBuilder methods = new StringBuilder();
  private int count;

  /** The methods the expressions made so far call, as class members. */
  String methods() {
    return methods.toString();
  }

  /** An expression that makes {@code value} again. */
  String expression(Object value) {
    if (value == null) {
      return "null";
    }
    if (value instanceof String s) {
      return ResourceCompiler.chunked(s);
    }
    if (value instanceof Boolean || value instanceof Integer) {
      return value.toString();
    }
    if (value instanceof Long l) {
      return l + "L";
    }
    if (value instanceof Enum<?> e) {
      return e.getDeclaringClass().getCanonicalName() + "." + e.name();
    }
    if (value instanceof Optional<?> o) {
      return o.isEmpty() ? "java.util.Optional.empty()" : call("java.util.Optional.of", o.get());
    }
    if (value instanceof List<?> list) {
      return call("java.util.List.of", list.toArray());
    }
    if (value instanceof Set<?> set) {
      List<String> elements = new ArrayList<>();
      for (Object e : set) {
        elements.add(expression(e));
      }
      elements.sort(null); // the same source from build to build
      return "java.util.Set.of(" + String.join(", ", elements) + ")";
    }
    if (value instanceof Map<?, ?> map) {
      List<String> entries = new ArrayList<>();
      for (Map.Entry<?, ?> e : map.entrySet()) {
        entries.add(call("java.util.Map.entry", e.getKey(), e.getValue()));
      }
      entries.sort(null);
      return "java.util.Map.ofEntries(" + String.join(",\n        ", entries) + ")";
    }
    if (value instanceof ModelCatalog catalog) {
      return call(ModelCatalog.class.getName() + ".resource", catalog.resourceName());
    }
    if (value.getClass().isRecord()) {
      return record(value);
    }
    throw new IllegalStateException(
        "a snapshot cannot make a " + value.getClass().getName() + " again: " + value);
  }

  private String call(String method, Object... arguments) {
    List<String> made = new ArrayList<>();
    for (Object a : arguments) {
      made.add(expression(a));
    }
    return method + "(" + String.join(", ", made) + ")";
  }

  private String record(Object value) {
    Class<?> type = value.getClass();
    List<Object> components = new ArrayList<>();
    for (RecordComponent c : type.getRecordComponents()) {
      Method accessor = c.getAccessor();
      try {
        accessor.setAccessible(true);
        components.add(accessor.invoke(value));
      } catch (IllegalAccessException | InvocationTargetException e) {
        throw new IllegalStateException(type.getName() + "." + c.getName() + ": " + e, e);
      }
    }
    String made = call("new " + type.getCanonicalName(), components.toArray());
    if (made.length() <= INLINE) {
      return made;
    }
    String name = "s" + count++;
    methods
        .append("\n  private static ")
        .append(type.getCanonicalName())
        .append(' ')
        .append(name)
        .append("() {\n    return ")
        .append(made)
        .append(";\n  }\n");
    return name + "()";
  }
}
