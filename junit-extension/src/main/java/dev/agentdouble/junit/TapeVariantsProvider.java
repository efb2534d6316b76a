package dev.agentdouble.junit;

import dev.agentdouble.junit.internal.handle.TapeFiles;
import dev.agentdouble.tape.Tape;
import dev.agentdouble.variants.Variants;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Named;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.ArgumentsProvider;
import org.junit.jupiter.params.support.AnnotationConsumer;

/** The arguments of {@link TapeVariants}: named tapes, the original first. */
final class TapeVariantsProvider implements ArgumentsProvider, AnnotationConsumer<TapeVariants> {
  private TapeVariants annotation;

  @Override
  public void accept(TapeVariants annotation) {
    this.annotation = annotation;
  }

  // the method JUnit 5.10 to 5.12 call (the README's "JUnit 5.10 and newer"); deprecated since
  // 5.13, whose default provideArguments(ParameterDeclarations, ExtensionContext) calls it
  @Override
  @SuppressWarnings("deprecation")
  public Stream<? extends Arguments> provideArguments(ExtensionContext context) {
    Tape original = TapeFiles.resource(annotation.resource());
    List<Arguments> arguments = new ArrayList<>();
    List<String> only = List.of(annotation.only());
    if (only.isEmpty()) {
      arguments.add(Arguments.of(Named.of("original", original)));
    }
    for (String name : only) {
      Variants.named(name, annotation.seed()); // unknown names fail here, listing the known ones
    }
    for (Variants.Variant v : Variants.all(annotation.seed())) {
      if (only.isEmpty() || only.contains(v.name())) {
        arguments.add(Arguments.of(Named.of(v.name(), v.apply(original))));
      }
    }
    return arguments.stream();
  }
}
