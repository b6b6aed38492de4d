# The showcase's prompts in German.
greet = Begrüßung
    .description = Eine Begrüßung verfassen
    .arg-name = Wen begrüßen
    .arg-tone = Wie die Begrüßung klingen soll
