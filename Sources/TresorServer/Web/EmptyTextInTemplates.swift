import Mustache

/// An empty string counts as absent in the web app's templates: `{{#x}}…{{/x}}` is skipped and
/// `{{^x}}…{{/x}}` shown when `x` is "", as for a missing value; `{{x}}` renders "" either way.
///
/// why here, once, for every template: Mustache (and swift-mustache) take any string, the empty
/// one too, as a value, so a label, a row or a separator stood around nothing ("Übertrag ·", an
/// empty "Mitteilung" row) wherever a route put "" for a text it did not have. Mending each route
/// left the next template to trip on it; a customer never wants a section for an empty text.
/// Retroactive on purpose: swift-mustache asks every value it renders for this protocol, and
/// no other code of the process uses it.
// swift-format-ignore: AvoidRetroactiveConformances
extension String: @retroactive MustacheCustomRepresentation {
    public var representation: Any? { isEmpty ? nil : self }
}
