use super::*;

#[test]
fn files_are_read_by_language_in_name_order() {
    let dir = std::env::temp_dir().join(format!("mcp-prompts-ftl-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(dir.join("de-CH")).unwrap();
    std::fs::write(dir.join("fr.ftl"), "a = b\n").unwrap();
    std::fs::write(dir.join("de-CH/z.ftl"), "z = y\n").unwrap();
    std::fs::write(dir.join("de-CH/a.ftl"), "a = c\n").unwrap();
    std::fs::write(dir.join("notes.txt"), "not Fluent").unwrap();
    let read = Translations::from_dir(&dir).unwrap();
    let languages: Vec<&str> = read.languages().collect();
    assert_eq!(languages, ["de-CH", "de-CH", "fr"]);
    assert!(read.files[0].1.ends_with("a.ftl"), "{:?}", read.files[0]);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn too_much_text_is_refused() {
    let dir = std::env::temp_dir().join(format!("mcp-prompts-ftl-big-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("fr.ftl"), "a".repeat(MAX_FLUENT_BYTES + 1)).unwrap();
    let error = Translations::from_dir(&dir).unwrap_err();
    assert!(error.to_string().contains("more than"), "{error}");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn problems_name_the_file_and_line() {
    let mut problems = Vec::new();
    let translations = Translations::new()
        .add("fr", "fr.ftl", "ok = fine\nbroken = \n  .x = \n")
        .add("not a tag", "x.ftl", "a = b\n");
    translations.compile(&mut problems);
    assert!(
        problems.iter().any(|p| p.starts_with("fr.ftl:2:")),
        "{problems:?}"
    );
    assert!(
        problems
            .iter()
            .any(|p| p.contains("x.ftl") && p.contains("BCP 47")),
        "{problems:?}"
    );
    // A message naming no prompt is a problem too.
    let mut problems = Vec::new();
    Translations::new()
        .add("fr", "fr.ftl", "nobody = Personne\n")
        .compile(&mut problems);
    assert_eq!(
        problems,
        ["fr.ftl: message `nobody` names no #[prompt] of the program"]
    );
}
