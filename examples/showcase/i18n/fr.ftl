# The showcase's prompts in French: one message per prompt, its value the
# title; `.description`, and `.arg-NAME` for an argument's description.
greet = Salutation
    .description = Rédiger une salutation
    .arg-name = Qui saluer
    .arg-tone = Le ton de la salutation
    .arg-tone-title = Ton

# The server's own words: the notes after an argument's description, the
# question asking for missing arguments, and the prompt tools' texts.
mcp-prompts =
    .needs = Le prompt « { $prompt } » a besoin de : { $names }
    .format = format : { $format }
    .from-to = de { $min } à { $max }
    .at-least = au moins { $min }
    .at-most = au plus { $max }
    .one-of = au choix : { $choices }
    .default = par défaut : { $value }
    .required = obligatoire
    .no-prompts = Aucun prompt n'est proposé.
    .list-prompts-title = Lister les prompts
    .list-prompts = Liste les prompts de ce serveur : le nom, la description et les arguments de chacun. Appelez get_prompt pour en utiliser un.
    .get-prompt-title = Obtenir un prompt
    .get-prompt = Donne les messages d'un prompt, remplis avec ses arguments. list_prompts en donne les noms et les arguments.
