# The showcase's prompts in French: one message per prompt, its value the
# title; `.description`, and `.arg-NAME` for an argument's description.
greet = Salutation
    .description = Rédiger une salutation
    .arg-name = Qui saluer
    .arg-tone = Le ton de la salutation
    .arg-tone-title = Ton
