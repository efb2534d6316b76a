package dev.agentdouble.junit.internal.extension;

import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.util.function.Supplier;
import org.junit.jupiter.api.extension.ExtensionConfigurationException;

/** Sets the fields of a test class (and its superclasses) that have a given type. */
public final class FieldInjection {
  private FieldInjection() {}

  /**
   * Sets every field of {@code type} declared by {@code testClass} or a superclass, the static ones
   * ({@code statics}, {@code instance} null) or those of {@code instance}, to what {@code value}
   * gives; a final one fails the test class.
   */
  public static void inject(
      Class<?> testClass, Object instance, boolean statics, Class<?> type, Supplier<?> value) {
    for (Class<?> c = testClass; c != null && c != Object.class; c = c.getSuperclass()) {
      for (Field field : c.getDeclaredFields()) {
        if (field.getType() != type || Modifier.isStatic(field.getModifiers()) != statics) {
          continue;
        }
        if (Modifier.isFinal(field.getModifiers())) {
          throw new ExtensionConfigurationException(named(type, field) + " must not be final");
        }
        try {
          field.setAccessible(true);
          field.set(instance, value.get());
        } catch (IllegalAccessException e) {
          throw new ExtensionConfigurationException("cannot set " + named(type, field), e);
        }
      }
    }
  }

  /** {@code FakeAgent field [MyTest.agent]}. */
  private static String named(Class<?> type, Field field) {
    return type.getSimpleName()
        + " field ["
        + field.getDeclaringClass().getSimpleName()
        + "."
        + field.getName()
        + "]";
  }
}
