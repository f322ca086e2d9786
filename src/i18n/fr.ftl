# Les messages de l'écran de jeu en français (syntaxe Fluent : https://projectfluent.org).
# Chaque identifiant est utilisé par le code et présent aussi dans en.ftl (un test le vérifie).

## La langue

lang-name = Français

## L'écran de nouvelle partie

newgame-field-language = Langue
