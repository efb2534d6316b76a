package dev.agentdouble.junit;

import static org.assertj.core.api.Assertions.assertThat;

import com.github.tomakehurst.wiremock.matching.StringValuePattern;
import java.io.IOException;
import java.lang.reflect.AnnotatedElement;
import java.lang.reflect.Executable;
import java.lang.reflect.Field;
import java.lang.reflect.GenericArrayType;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.Type;
import java.lang.reflect.TypeVariable;
import java.lang.reflect.WildcardType;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The public API of {@code agentdouble-junit} names AgentDouble's, the JDK's and JUnit's types
 * only: no WireMock type in any public or protected signature, so upgrading WireMock (or replacing
 * it) never breaks a user's test.
 */
class PublicApiTest {
  private static final List<String> FOREIGN =
      List.of("com.github.tomakehurst.", "org.wiremock.", "wiremock.");

  @Test
  void noPublicSignatureNamesAWireMockType() throws Exception {
    List<Class<?>> api = publicTypes();
    Set<String> violations = new TreeSet<>();
    for (Class<?> type : api) {
      check(type.getName() + " extends", type.getGenericSuperclass(), violations);
      for (Type i : type.getGenericInterfaces()) {
        check(type.getName() + " implements", i, violations);
      }
      for (Field f : type.getDeclaredFields()) {
        if (visible(f.getModifiers())) {
          check(type.getName() + "." + f.getName(), f.getGenericType(), violations);
        }
      }
      List<Executable> executables = new ArrayList<>(List.of(type.getDeclaredMethods()));
      executables.addAll(List.of(type.getDeclaredConstructors()));
      for (Executable e : executables) {
        if (!visible(e.getModifiers()) || e.isSynthetic()) {
          continue;
        }
        String where = type.getName() + "." + e.getName() + "(..)";
        for (Type p : e.getGenericParameterTypes()) {
          check(where + " parameter", p, violations);
        }
        for (Type x : e.getGenericExceptionTypes()) {
          check(where + " throws", x, violations);
        }
        if (e instanceof Method m) {
          check(where + " returns", m.getGenericReturnType(), violations);
        }
        annotations(where, e, violations);
      }
      annotations(type.getName(), type, violations);
    }

    assertThat(api)
        .as("the public types of dev.agentdouble.junit")
        .contains(FakeAgent.class, InvocationPattern.class, TextMatch.class);
    assertThat(violations).as("WireMock types in the public API").isEmpty();
  }

  @Test
  void theCheckSeesAWireMockTypeInsideAGenericSignature() throws Exception {
    Set<String> violations = new TreeSet<>();
    Method m = Sample.class.getDeclaredMethod("patterns");

    check("Sample.patterns", m.getGenericReturnType(), violations);

    assertThat(violations)
        .hasSize(1)
        .first()
        .asString()
        .contains("com.github.tomakehurst.wiremock.matching.StringValuePattern");
  }

  /** A signature the check must refuse. */
  interface Sample {
    List<? extends StringValuePattern> patterns();
  }

  private static boolean visible(int modifiers) {
    return Modifier.isPublic(modifiers) || Modifier.isProtected(modifiers);
  }

  private static void annotations(String where, AnnotatedElement e, Set<String> violations) {
    for (var a : e.getAnnotations()) {
      check(where + " annotated", a.annotationType(), violations);
    }
  }

  private static void check(String where, Type type, Set<String> violations) {
    if (type == null) {
      return;
    }
    if (type instanceof Class<?> c) {
      while (c.isArray()) {
        c = c.getComponentType();
      }
      String name = c.getName();
      if (FOREIGN.stream().anyMatch(name::startsWith)) {
        violations.add(where + ": " + name);
      }
    } else if (type instanceof ParameterizedType p) {
      check(where, p.getRawType(), violations);
      for (Type arg : p.getActualTypeArguments()) {
        check(where, arg, violations);
      }
    } else if (type instanceof WildcardType w) {
      for (Type b : w.getUpperBounds()) {
        check(where, b, violations);
      }
      for (Type b : w.getLowerBounds()) {
        check(where, b, violations);
      }
    } else if (type instanceof GenericArrayType g) {
      check(where, g.getGenericComponentType(), violations);
    } else if (type instanceof TypeVariable<?> v) {
      for (Type b : v.getBounds()) {
        check(where, b, violations);
      }
    }
  }

  /** Every public type of the extension's API packages (not {@code .internal}), nested included. */
  private static List<Class<?>> publicTypes()
      throws IOException, URISyntaxException, ClassNotFoundException {
    Path classes =
        Path.of(FakeAgent.class.getProtectionDomain().getCodeSource().getLocation().toURI());
    List<Class<?>> types = new ArrayList<>();
    List<String> names;
    try (Stream<Path> files = Files.walk(classes)) {
      names =
          files
              .map(p -> classes.relativize(p).toString())
              .filter(n -> n.startsWith("dev/agentdouble/junit/") && n.endsWith(".class"))
              .filter(n -> !n.contains("/internal/") && !n.endsWith("package-info.class"))
              .map(n -> n.substring(0, n.length() - ".class".length()).replace('/', '.'))
              .sorted()
              .toList();
    }
    for (String name : names) {
      Class<?> type = Class.forName(name, false, PublicApiTest.class.getClassLoader());
      if (Modifier.isPublic(type.getModifiers())
          && !type.isAnonymousClass()
          && !type.isSynthetic()) {
        types.add(type);
      }
    }
    return types;
  }
}
