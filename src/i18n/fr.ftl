# Les messages de l'écran de jeu en français (syntaxe Fluent : https://projectfluent.org).
# Chaque identifiant est utilisé par le code et présent aussi dans en.ftl (un test le vérifie).

## La langue

lang-name = Français

## L'écran de nouvelle partie

newgame-online-table = une table en ligne
newgame-field-language = Langue
newgame-key-learn = apprendre les règles
newgame-key-rules = lire les règles

## Touches nommées à l'écran

key-enter = Entrée
# La touche qui répond oui dans une fenêtre qui demande (n répond non).
key-yes = o
key-esc = Échap

## La première partie guidée (reversi learn)

lesson-title = Apprendre les règles
lesson-step = Étape { $n } sur { $total } : { $title }
lesson-next = Entrée : étape suivante
lesson-leave = Entrée : retour à l'écran de nouvelle partie
lesson-key-move = déplacer
lesson-page-down = PgSuiv
lesson-page-up = PgPréc
lesson-key-play = jouer / suite
lesson-key-leave = quitter la leçon
lesson-key-quit = quitter

lesson-coordinates-title = le plateau
lesson-coordinates = Les colonnes vont de a à h, de gauche à droite, et les rangées de 1 à 8, de haut en bas ; on nomme une case par sa colonne puis sa rangée : d3, c'est la colonne d, rangée 3. La partie commence avec quatre pions au centre : les Blancs en d4 et e5, les Noirs en d5 et e4. Les Noirs jouent en premier.
lesson-coordinates-task = Mettez le curseur sur un pion blanc et appuyez sur Entrée (ou tapez sa case, par exemple e5).
lesson-coordinates-done = Oui : { $square } porte un pion blanc.
lesson-wrong-black-disc = { $square } porte un pion noir ; les pions blancs sont les deux autres du centre.
lesson-wrong-empty = { $square } est vide : colonne { $column }, rangée { $row }. Regardez les quatre cases du centre.

lesson-legal-title = les coups légaux
lesson-legal = On ne déplace jamais un pion : on en pose un nouveau sur une case vide. Cette case doit fermer au moins une ligne : en partant d'elle dans l'une des huit directions (deux horizontales, deux verticales, quatre diagonales), on doit trouver un ou plusieurs pions blancs à la suite, puis un pion noir. Les points marquent ces cases : au départ, les Noirs en ont quatre, d3, c4, f5 et e6.
lesson-legal-task = Choisissez une case marquée, n'importe laquelle.
lesson-legal-done = { $square } est un coup légal : une ligne de pions blancs va de cette case jusqu'à un pion noir.

lesson-first-title = le premier coup
lesson-first = En descendant la colonne depuis d3 : d4 est blanc, puis d5 est noir. Un pion posé en d3 prendrait d4 entre lui et d5.
lesson-first-task = Jouez d3.
lesson-first-done = d4 est devenu noir : il était pris entre votre nouveau pion et d5, la ligne s'est fermée. Seuls les pions d'une ligne fermée se retournent, et aucune autre direction ne se ferme depuis d3. Un pion retourné peut l'être à nouveau plus tard.
lesson-wrong-other-legal = { $square } est légal aussi, mais cette étape demande { $target }.

lesson-lines-title = plusieurs lignes d'un coup
lesson-lines = Chaque direction partant du nouveau pion se juge à part : toutes celles qui se ferment se retournent, dans le même coup.
lesson-lines-task = Trouvez la case qui ferme à la fois une rangée, une colonne et une diagonale, et jouez-la.
lesson-lines-done = c3 a fermé trois lignes d'un coup : d3 et e3 sur la rangée, c4 sur la colonne, d4 et e5 sur la diagonale. { $n ->
    [one] Un pion s'est retourné.
   *[other] { $n } pions se sont retournés.
}
lesson-wrong-fewer-lines = { $square } ne ferme { $lines ->
    [one] qu'une ligne
   *[other] que { $lines } lignes
}. Cherchez la case d'où une rangée, une colonne et une diagonale finissent chacune sur un pion noir.

lesson-pass-title = passer
lesson-pass = Les Noirs avaient le trait, mais aucune case ne portait de point : aucun coup noir ne fermait de ligne. Les Noirs ont donc passé, et le jeu l'a fait pour vous. Passer n'est jamais un choix : tant qu'il reste un point, il faut jouer. Les Blancs ont ensuite joué b4 et retourné c3.
lesson-pass-task = Les Noirs peuvent rejouer : jouez une case marquée.
lesson-pass-done = Bien. Si les Blancs n'avaient pas pu jouer non plus, la partie se serait arrêtée là.

lesson-end-title = la fin et le décompte
lesson-end = La partie s'arrête dès qu'aucun des deux camps ne peut jouer, même s'il reste des cases vides. Chacun compte alors ses pions : le plus grand nombre gagne ; à égalité, la partie est nulle.
lesson-end-task = Jouez c2, le dernier coup de cette partie.
lesson-end-done = Plus personne ne peut jouer, et { $empty ->
    [one] une case reste vide
   *[other] { $empty } cases restent vides
} : la partie est finie. Noirs { $black }, Blancs { $white } : les Noirs gagnent. Les cases vides ne comptent pour personne.

lesson-empties-title = les cases vides au vainqueur
lesson-empties = Certaines règles donnent au vainqueur les cases restées vides à la fin : une partie en 6×6 le fait sauf si vous choisissez autrement, et toute partie peut le choisir sur l'écran de nouvelle partie.
lesson-empties-task = Rejouez c2, cette fois avec les cases vides au vainqueur.
lesson-empties-done = Noirs { $black }, Blancs { $white } : { $empty ->
    [one] la case vide est allée
   *[other] les { $empty } cases vides sont allées
} aux Noirs. La règle change le score, jamais le vainqueur ; en cas de partie nulle, on les partage.

lesson-finished-title = bravo
lesson-finished = Vous avez vu toutes les règles : les coups légaux, plusieurs lignes d'un coup, la passe, la fin avant que le plateau soit plein et le décompte. En 6×6, les mêmes règles valent sur un plateau plus petit ; en Anti Reversi, c'est le camp qui a le moins de pions qui gagne. R affiche les règles complètes à tout moment.

lesson-why-taken = { $square } porte déjà un pion { $colour ->
    [black] noir
   *[other] blanc
} : on pose un pion sur une case vide, et il ne bouge plus.
lesson-why-alone = { $square } ne touche aucun pion { $them ->
    [black] noir
   *[other] blanc
} : aucune ligne ne peut partir de cette case.
lesson-why-open = Depuis { $square }, aucune ligne de pions { $them ->
    [black] noirs
   *[other] blancs
} ne finit sur un pion { $us ->
    [black] noir
   *[other] blanc
} : rien ne se ferme, le coup n'est pas légal.
lesson-lines-wiped-out = Il ne reste aucun pion blanc : plus personne ne peut jouer, et la partie s'arrête aussitôt, { $black }–0 pour les Noirs.

## Les règles complètes (R)

rules-heading = Les règles
rules-close = Échap ferme
rules-scroll = ↑↓ défiler, Échap ferme
rules-board-title = Le plateau et les quatre pions
rules-board = Le plateau compte 8 colonnes (a à h) et 8 rangées (1 à 8) ; le petit plateau en a 6 de chaque. Chaque pion a une face noire et une face blanche. La partie commence avec quatre pions sur les cases du centre, chaque couleur sur une diagonale : les Blancs en d4 et e5, les Noirs en d5 et e4. Les Noirs jouent le premier coup, puis chacun joue à son tour.
rules-moves-title = Les coups légaux, dans huit directions
rules-moves = Un coup ajoute un pion de votre couleur sur une case vide ; les pions posés ne bougent jamais. Le coup n'est légal que s'il ferme une ligne : dans au moins une des huit directions (deux horizontales, deux verticales, quatre diagonales), le nouveau pion touche un ou plusieurs pions adverses à la suite, sans case vide, et un pion à vous termine cette suite. Un point marque chaque case jouable.
rules-lines-title = Plusieurs lignes d'un coup
rules-lines = Chaque direction se juge à part. Toutes les lignes fermées par le coup passent à votre couleur en même temps — une rangée, une colonne et une diagonale ensemble s'il le faut — et seuls les pions de ces lignes se retournent. Un pion retourné peut l'être à nouveau plus tard.
rules-pass-title = Passer son tour
rules-pass = Si vous n'avez aucun coup légal, vous passez et l'adversaire rejoue ; le jeu passe pour vous. On ne peut jamais passer tant qu'on a un coup légal.
rules-end-title = La fin, plateau plein ou non
rules-end = La partie s'arrête dès qu'aucun des deux camps ne peut jouer : plateau plein, ou plus tôt avec des cases vides, par exemple quand une couleur n'a plus aucun pion.
rules-count-title = Le décompte et la partie nulle
rules-count = Chaque camp compte alors ses pions. Le plus grand nombre gagne ; à égalité, la partie est nulle.
rules-empties-title = Les cases vides au vainqueur
rules-empties = Par défaut en 8×8, les cases restées vides à la fin ne comptent pour personne. Avec « cases vides au vainqueur » (par défaut en 6×6, au choix sur l'écran de nouvelle partie), le vainqueur se décide sur les seuls pions, puis les cases vides lui sont comptées : elles s'ajoutent à son total, ou se partagent en cas de partie nulle. En Anti Reversi, où le plus petit total gagne, elles s'ajoutent au total du perdant, pour creuser là aussi l'écart en faveur du vainqueur. Le score change, jamais le vainqueur.
rules-variants-title = Le 6×6 et l'Anti Reversi
rules-variants = Le Reversi 6×6 suit les mêmes règles sur un plateau de 6 sur 6 : une partie plus courte, de 32 coups au plus. L'Anti Reversi garde toutes les règles du coup mais renverse le but : à la fin, le camp qui a le moins de pions gagne.

## L'écran en ligne (reversi online ; « une table en ligne » sur l'écran de nouvelle partie)

online-black = Noirs
online-white = Blancs
online-variant-8x8 = 8×8
online-variant-6x6 = 6×6
online-variant-anti = Anti 8×8
online-scoring-nobody = à personne
online-scoring-winner = au vainqueur
online-colour-random = tirée au sort
online-no-clock = sans pendule
online-status-waiting = en attente
online-status-playing = en cours
online-status-finished = terminée
online-anyone = n'importe qui
online-only = seulement { $name }
online-server-ai-short = IA du serveur niveau { $level }
online-server-ai = l'IA du serveur, niveau { $level }
online-any-person = une personne
online-invite-type = seulement : tapez un nom
online-invite-bad = Ce nom d'invité ne convient pas : { $reason }
online-invite-yourself = c'est votre propre nom
online-watching-invited = La table { $table } est réservée à { $name } : vous la regardez
online-draw = Nulle { $black }–{ $white }
online-wins = { $who } gagne { $black }–{ $white }
online-wins-resigned = { $who } gagne : { $loser } abandonne
online-wins-on-time = { $who } gagne au temps
online-wins-abandoned = { $who } gagne : { $loser } a quitté la partie
online-draw-abandoned = Partie nulle : un joueur a quitté la partie
online-away = { $name } : connexion perdue
online-away-claim-in = { $name } : connexion perdue ; vous pourrez réclamer la partie dans { $time }
online-away-claim = { $name } : connexion perdue ; w pour réclamer la partie
online-went-away = { $name } : connexion perdue
online-came-back = { $name } est de retour
online-undo-cancelled = { $name } : connexion perdue ; la demande de reprise est annulée
online-undo-answer-first = Répondez d'abord à la demande de reprise (o/n)
online-claim-title = Adversaire parti
online-claim-question = { $name } a quitté la table.
online-claim-choices = w réclamer la victoire   d déclarer la partie nulle   Échap attendre
online-claim-wait = Vous pourrez réclamer la partie dans { $time }
online-claim-clock = { $name } : connexion perdue ; sa pendule tourne
online-claim-nothing = Votre adversaire est là : rien à réclamer
online-no-claim = la partie ne peut pas être réclamée maintenant
online-no-table-never = il n'y a pas de table { $table }
online-undo-asked = { $name } demande à reprendre { $n ->
    [1] son dernier coup
   *[other] son dernier coup et le vôtre ({ $n } coups)
} — o/n
online-undo-title = Reprendre
online-connecting = connexion…
online-connected = connecté
online-offline = non connecté
online-reconnecting = reconnexion…
online-reconnecting-attempt = reconnexion… (essai { $n })
online-reconnecting-next = reconnexion… (essai { $n } dans { $secs } s)
online-unreachable = Impossible de joindre le serveur { $url } : { $reason }
online-refused = Le serveur refuse : { $message }
online-unreachable-keys = r réessayer   e changer d'adresse ou de nom   Échap retour
online-take-back-keys = r la reprendre   e changer d'adresse ou de nom   Échap retour
online-replaced = Cette session a été ouverte ailleurs (une autre fenêtre ou un autre ordinateur l'a reprise) — r pour la reprendre
online-taken = Le nom { $name } est utilisé sur ce serveur par une session que cet ordinateur détient (une autre fenêtre ?) — r pour la reprendre
online-lost = Connexion perdue ({ $reason }) ; reconnexion…
online-reconnected = Reconnecté
online-need-connection = Non connecté : attendez le retour de la connexion
online-not-your-turn = Ce n'est pas votre tour
online-watching-only = Vous regardez cette table
online-illegal = { $square } n'est pas un coup légal
online-sent = { $square } envoyé
online-undo-sent = Reprise demandée ; en attente de la réponse
online-nothing-to-undo = Vous n'avez aucun coup à reprendre
online-undo-declined = La reprise a été refusée
online-undone = Coups repris
online-undo-accepted = Vous avez accepté la reprise
online-undo-refused = Vous avez refusé la reprise
online-waiting = En attente d'un adversaire
online-waiting-draw = En attente d'un adversaire ; couleurs tirées au sort au début
online-table-gone = La table n'existe plus
online-server-error = Serveur : { $message }
online-why-refused = personne ne répond à cette adresse (le serveur est-il lancé ?)
online-why-no-answer = pas de réponse à temps
online-why-unknown-host = nom d'hôte inconnu
online-why-closed = la connexion a été fermée
online-why-untrusted = le certificat du serveur n'est pas reconnu (reversi online --ca FICHIER l'ajoute)
online-why-wrong-name = le certificat du serveur est établi pour un autre nom
online-why-expired = le certificat du serveur a expiré
online-why-not-tls = le serveur ne parle pas TLS à cette adresse (essayez ws://)
online-no-bad-request = le serveur n'a pas compris la demande
online-no-version = le serveur parle une autre version du protocole
online-no-bad-name = ce nom n'est pas valable (lettres, chiffres, '_', '-', '.' ; 20 au plus)
online-no-name-taken = ce nom est déjà pris ; choisissez-en un autre
online-no-bad-token = la session de ce nom appartient à quelqu'un d'autre
online-no-such-table = cette table n'existe plus
online-no-table-full = la table n'a plus de place libre
online-no-not-invited = cette table est réservée à un invité
online-no-not-seated = vous n'êtes pas assis à cette table
online-no-not-playing = la partie n'est pas en cours
online-no-not-your-turn = ce n'est pas votre tour
online-no-illegal = ce coup est contraire aux règles
online-no-undo = aucune reprise n'est possible maintenant
online-no-bad-table = le serveur refuse ces réglages de table
online-no-ai-busy = l'IA du serveur joue trop de tables ; réessayez plus tard
online-no-limit = trop de tables : quittez-en une d'abord
online-no-in-game = la partie est en cours : abandonnez pour la quitter
online-no-table = Aucune table choisie
online-kept = Partie gardée dans { $path }
online-not-kept = Partie non gardée dans { $path } : { $error }
online-not-remembered = Serveur et nom non retenus : { $error }
online-no-thread = impossible de lancer le fil réseau : { $error }
online-bad-name = Nom : { $error }
online-name-empty = le nom est vide
online-name-too-long = le nom dépasse { $max } caractères
online-name-bad-char = le nom ne peut contenir que des lettres, des chiffres, « _ », « - » et « . », pas { $char }
online-name-reserved = les noms commençant par « AI- » sont réservés au moteur du serveur
online-name-restricted = { $char } n'est pas admis dans les noms
online-name-mixed-scripts = { $char } est d'une autre écriture que les lettres qui le précèdent : écrivez le nom dans une seule écriture
online-bad-url = Adresse : ws://hôte:port ou wss://hôte:port attendu
online-resign-title = Abandon
online-resign-question = Abandonner cette partie ?
online-leave-title = Quitter
online-leave-question = Quitter cette table ?
online-col-players = Joueurs
online-col-variant = Variante
online-col-scoring = Cases vides
online-col-clock = Pendule
online-col-status = État
online-col-watching = Public
online-lobby = Salon
online-no-tables = Aucune table : c pour en créer une
online-create = Nouvelle table en ligne
online-field-board = Plateau
online-field-empties = Cases vides
online-field-colour = Votre couleur
online-field-clock = Pendule
online-field-opponent = Adversaire
online-connect = Jouer en ligne
online-field-server = Serveur
online-field-name = Votre nom
online-you = vous
online-you-are = vous : { $name }
online-to-move-yours = Trait aux { $side } — à vous
online-to-move = Trait aux { $side }
online-to-move-named = Trait aux { $side } ({ $name })
online-spectators = { $n ->
    [one] 1 spectateur
   *[other] { $n } spectateurs
}
online-chat = Discussion
online-table = Table { $id }
online-key-next-field = champ suivant
online-key-connect = se connecter
online-key-back = retour
online-key-choose = choisir
online-key-join = s'asseoir
online-key-watch = regarder
online-key-create = créer
online-key-quit = quitter
online-key-change = changer
online-key-create-table = créer
online-key-send = envoyer
online-key-cancel = annuler
online-key-replay = revoir
online-key-save = enregistrer
online-key-chat = discuter
online-key-lobby = retour au salon
online-key-move = déplacer
online-key-play = jouer
online-key-undo = reprise
online-key-claim = réclamer
online-key-resign = abandonner ou quitter
online-key-leave = quitter
online-key-help = aide
key-home = Début
key-end = Fin
online-help-title = Touches
online-help-close = ? ou Échap ferme
online-help-choose = choisir une table
online-help-first-last = la première / la dernière table
online-help-join = s'asseoir à la table (ou la regarder si elle ne vous est pas ouverte)
online-help-watch = regarder la table
online-help-create = créer une table
online-help-refresh = redemander la liste au serveur
online-help-back = retour à l'écran de nouvelle partie
online-help-undo = demander à l'adversaire de reprendre votre dernier coup
online-help-claim = réclamer la partie quand l'adversaire est parti (victoire ou nulle)
online-help-chat = écrire une ligne à la table (Entrée l'envoie)
online-help-replay-save = la partie finie : la revoir / l'enregistrer (GGF)
online-help-resign = abandonner (après confirmation), ou quitter une table regardée ou finie
online-help-help = cette aide
online-help-quit = quitter tout de suite
online-help-invite = copier la ligne qui invite quelqu'un à votre table en attente
online-key-invite = copier l'invitation
online-invite-line = Pour inviter quelqu'un, envoyez-lui cette ligne (y la copie)
online-invite-copied = Invitation copiée
online-help-chat-scroll = remonter la discussion vers les lignes plus anciennes / redescendre
online-chat-older = Discussion (avant ; PgSuiv)
## Mots employés partout

side-name = { $side ->
    [black] Noirs
   *[other] Blancs
}
level-label = { $n } ({ $name })
level-name = { $n ->
    [1] débutant
    [2] novice
    [3] décontracté
    [4] loisir
    [5] en progrès
    [6] intermédiaire
    [7] club
    [8] avancé
    [9] fort
    [10] tournoi
    [11] expert
   *[12] maître
}
level-who = { $n ->
    [1] apprendre les règles
    [2] vos premières victoires
    [3] les parties détendues
    [4] les joueurs occasionnels
    [5] les amateurs motivés
    [6] les nouveaux joueurs de club
    [7] les joueurs de club
    [8] les bons joueurs de club
    [9] les joueurs forts
    [10] les joueurs de tournoi
    [11] les experts
   *[12] les maîtres
}
level-how = { $n ->
    [1] prend le plus de pions, sans voir plus loin
    [2] garde des coups en réserve, ignore les coins
    [3] connaît coins et bords, voit un coup d'avance
    [4] connaît les coins, voit deux coups d'avance
    [5] voit coins et bords, trois coups d'avance
    [6] un vrai sens du jeu, mais une vue courte
    [7] 3 coups d'avance, les 8 derniers parfaits
    [8] 4 coups d'avance, les 10 derniers parfaits
    [9] 6 coups d'avance, les 12 derniers parfaits
    [10] 8 coups d'avance, les 14 derniers parfaits
    [11] 12 coups d'avance, les 18 derniers parfaits
   *[12] toute sa force, jusqu'à 4 secondes par coup
}
move-pass = passe
outcome = { $winner ->
    [black] victoire des Noirs { $black }–{ $white }
    [white] victoire des Blancs { $white }–{ $black }
   *[none] nulle, { $black }–{ $white }
}
result-unfinished = inachevée
result-resigned = { $side ->
    [black] les Noirs abandonnent
   *[white] les Blancs abandonnent
}
result-on-time = { $side ->
    [black] les Noirs perdent au temps
   *[white] les Blancs perdent au temps
}
rules-short-anti = anti
rules-short-nobody = , cases vides à personne
rules-short-winner = , cases vides au vainqueur
seconds = { $s } s

## L'écran de nouvelle partie

newgame-title = Nouvelle partie
newgame-field-opponent = Adversaire
newgame-field-colour = Votre couleur
newgame-field-level = Niveau de l'IA
newgame-field-board = Plateau
newgame-field-rules = Règle
newgame-field-empties = Cases vides
opponent-computer = l'ordinateur
opponent-human = une personne, même clavier
opponent-watch = aucun : l'IA contre l'IA
colour-random = tirée au sort
colour-fixed = { $side ->
    [black] les Noirs
   *[other] les Blancs
}
rules-normal = normale : le plus de pions gagne
rules-anti = anti : le moins de pions gagne
empties-nobody = ne comptent pour personne
empties-winner = vont au vainqueur
newgame-level-for = Niveau { $n } : pour { $who }
key-choose = choisir
key-change = changer
key-start = commencer
key-help-rules = aide et règles
key-back-to-game = retour à la partie
note-watching = L'IA joue contre elle-même : t prend un camp en main
note-drawn = Tirage au sort : vous avez { $you ->
    [black] les Noirs, l'IA a les Blancs
   *[other] les Blancs, l'IA a les Noirs
}
note-you-play = Vous jouez { $you ->
    [black] les Noirs
   *[other] les Blancs
}

## Le panneau à côté du plateau

player-you = Vous
player-human = Joueur
player-ai = IA { $n } { $name }
turn-game-over = Partie terminée
turn-weighing = Évaluation de chaque coup
turn-thinking = { $side ->
    [black] Les Noirs réfléchissent
   *[other] Les Blancs réfléchissent
}
turn-paused = Trait aux { $side ->
    [black] Noirs
   *[other] Blancs
} (en pause : Espace reprend)
turn-yours = À vous de jouer ({ $side ->
    [black] Noirs
   *[other] Blancs
})
turn-to-move = Trait aux { $side ->
    [black] Noirs
   *[other] Blancs
}
typed-row = tapé : maintenant la rangée, 1 à 8
game-over = Partie terminée : { $result }
empties-to-winner-note = cases vides au vainqueur
empties-shared-note = cases vides partagées
replay-header = Relecture — coup { $ply } sur { $len }
replay-start = La position de départ
replay-passed = Les { $side ->
    [black] Noirs
   *[other] Blancs
} ont passé (aucun coup légal)
replay-played = Les { $side ->
    [black] Noirs
   *[other] Blancs
} ont joué { $square } : { $n ->
    [one] { $n } pion retourné
   *[other] { $n } pions retournés
}
autoplay-every = Lecture auto : un coup toutes les { $time }
moves-title = Coups
moves-played = { $n ->
    [one] { $n } joué
   *[other] { $n } joués
}
empties-against-loser-note = cases vides comptées contre le perdant
moves-none = Aucun coup joué

## Touches du bas de l'écran et du panneau

key-space = Espace
key-arrows = flèches
key-home-end = Début/Fin PgPréc/PgSuiv
key-step = pas à pas
key-autoplay = lecture auto
key-continue-here = reprendre ici
key-review = analyse
key-mistakes = erreurs
key-pace = vitesse
key-jump = sauter
key-leave = sortir
key-quit = quitter
key-replay = revoir
key-new-game = nouvelle partie
key-save = enregistrer
key-step-back = reculer
key-help = aide
key-move = déplacer
key-play = jouer
key-undo = annuler
key-redo = rétablir
key-hint = conseil
key-new = nouvelle
key-pause = pause
key-take-over = prendre la main
key-back = reculer

## La fenêtre d'aide

help-title = Aide
help-rules-title = Règles
help-key-enter-space = Entrée Espace
help-key-click = clic
help-key-dots = L ou .
help-key-replay = v ou clic
help-move-cursor = déplacer le curseur
help-play-cursor = jouer sous le curseur
help-type-square = taper une case pour y jouer
help-click = jouer la case cliquée
help-undo-redo = annuler / rétablir (jusqu'à votre tour précédent)
help-hint = conseil : le score de chaque coup, le meilleur en avant
help-dots = points des coups légaux affichés ou non
help-take-over = confier le camp au trait à l'IA, ou le reprendre
help-pace = pause IA contre IA ; IA plus rapide / plus lente
help-replay = revoir la partie coup par coup (clic sur un coup de la liste)
help-review = analyser les coups, sauter : ?!/?/?? perdent 1+/4+/10+ pions
help-save = enregistrer la partie (GGF) / copier les coups
help-new = nouvelle partie
help-rules-full = les règles complètes
help-close = cette aide / fermer une fenêtre, cacher le conseil
help-quit = quitter (demande si la partie n'est pas finie) / tout de suite
help-rules-1 = Posez un pion qui enferme une ligne droite de pions
help-rules-2 = adverses : ils se retournent tous. Sans coup légal, on passe.
help-rules-3 = Quand aucun camp ne peut jouer, la partie s'arrête :
help-rules-4 = le plus de pions gagne (le moins en Anti Reversi).

## Fenêtres qui demandent

confirm-quit-title = Quitter
confirm-quit-1 = La partie n'est pas finie.
# Les touches de la question pour quitter : garder la partie et quitter, la supprimer et quitter.
confirm-quit-keep-key = g
confirm-quit-keep = la garder et quitter (reprise au prochain lancement)
confirm-quit-discard-key = s
confirm-quit-discard = la supprimer et quitter
confirm-quit-back = revenir à la partie
confirm-continue-title = Reprendre ici
confirm-continue-dropped = { $n ->
    [one] Le coup suivant sera supprimé.
   *[other] Les { $n } coups suivants seront supprimés.
}
confirm-continue-ask = Reprendre la partie à ce coup ?
confirm-resume-title = Reprendre
confirm-resume-saved = Une partie inachevée ({ $n ->
    [one] { $n } coup
   *[other] { $n } coups
}) a été gardée.
confirm-resume-ask = La reprendre ?
too-small-title = Terminal trop petit
too-small-need = il faut { $need }, il y a { $have }
too-small-enlarge = Agrandissez la fenêtre (q quitte)
too-small-enlarge-online = Agrandissez la fenêtre (Ctrl-C quitte)

## Messages d'état

status-analysis-failed = L'analyse a échoué ({ $message })
status-ai-failed = L'IA a échoué ({ $message }) ; t prend son camp, Espace réessaie
status-playing-on = Reprise au coup { $ply } ; { $n ->
    [one] { $n } coup suivant supprimé
   *[other] { $n } coups suivants supprimés
}
status-resume-later = La partie inachevée reste gardée jusqu'à ce qu'une nouvelle la remplace
status-back-to-game = Retour à la partie
status-off-board = { $square } n'est pas sur le plateau { $size }
status-not-a-column = { $key } n'est pas une colonne : tapez une case par sa colonne, de { $first } à { $last }, puis sa rangée (f5)
status-column-first = Tapez une case par sa colonne d'abord, puis sa rangée (f5)
status-resumed = Reprise
status-paused = En pause
status-nothing-to-replay = Aucun coup à revoir pour l'instant
status-replay-keys = Relecture : ←/→ pas à pas, Début/Fin, PgPréc/PgSuiv, Espace lecture auto, c reprendre, Échap sort
status-nothing-to-copy = Aucun coup à copier pour l'instant
status-copied = Copié : { $moves }
status-dots = Points des coups légaux { $on ->
    [yes] affichés
   *[no] cachés
}
status-ai-pace = Vitesse de l'IA : au moins { $time } par coup (+ plus vite, - plus lent)
status-game-over = Partie terminée : { $result }. n nouvelle partie, u reculer, q quitter
status-wait-ai = Attendez : trait aux { $side ->
    [black] Noirs
   *[other] Blancs
} (IA)
status-occupied = { $square } est déjà occupée
status-encloses-nothing = { $square } n'est pas jouable : ce coup n'enferme aucun pion adverse
status-cannot-pass = Les { $side ->
    [black] Noirs
   *[other] Blancs
} ne peuvent pas passer : il existe un coup légal
status-over = la partie est terminée
status-back-to-move = Retour au coup { $n }
status-nothing-to-undo = Rien à annuler
status-nothing-to-redo = Rien à rétablir
status-forward-to-move = Avance au coup { $n }
status-hint-hidden = Conseil caché
status-hint-shown = Conseil : les scores du camp au trait, le meilleur en avant
status-hint-book = Conseil : d'après le livre d'ouvertures, le meilleur en avant
status-hint-person = Un conseil ne sert qu'au tour d'une personne
status-you-now-play = Vous jouez maintenant les { $side ->
    [black] Noirs
   *[other] Blancs
}
status-ai-now-plays = L'IA (niveau { $n }, { $name }) joue maintenant les { $side ->
    [black] Noirs
   *[other] Blancs
}
status-ai-illegal = L'IA a proposé un coup illégal ({ $error }) ; t prend la main
status-played = Les { $side ->
    [black] Noirs
   *[other] Blancs
} ont joué { $mv }
status-passes = Les { $side ->
    [black] Noirs n'ont aucun coup légal et passent
   *[other] Blancs n'ont aucun coup légal et passent
}
status-playing-on-last = Reprise au dernier coup
status-replay-left = Relecture terminée
status-autoplay-started = Lecture auto lancée (+ plus vite, - plus lent, Espace arrête)
status-autoplay-stopped = Lecture auto arrêtée
status-autoplay-pace = Vitesse de lecture : un coup toutes les { $time }
status-config-unused = Réglages non lus ({ $error }) ; valeurs par défaut
status-choices-not-saved = Choix non enregistrés : { $error }
status-not-saved = Non enregistrée : { $error }
status-saved-to = Enregistrée dans { $path }
status-not-saved-to = Non enregistrée dans { $path } : { $error }
status-ai-pace-none = Vitesse de l'IA : sans attente, aussi vite qu'elle calcule (- plus lent)
status-autosave-failed = La sauvegarde automatique a échoué : { $error }

## L'analyse en relecture

review-hidden = Analyse cachée (a la montre à nouveau)
review-shown = Analyse affichée : [ ] pour sauter aux erreurs
review-started = Analyse lancée : [ ] pour sauter aux erreurs
review-no-mistake = { $forward ->
    [yes] Aucune erreur plus loin
   *[no] Aucune erreur avant
}{ $done ->
    [yes] {""}
   *[no] {" "}analysée pour l'instant
}
review-step-to-move = Analyse : allez sur un coup pour voir son score
review-thinking = Analyse : réflexion sur ce coup…
review-forced-pass = Les { $side ->
    [black] Noirs
   *[other] Blancs
} n'avaient aucun coup : passe forcée
review-best = { $side ->
    [black] Noirs
   *[other] Blancs
} { $mv } : le meilleur coup ({ $score })
review-class = { $class ->
    [inaccuracy] imprécision
    [mistake] erreur
    [blunder] gaffe
   *[best] meilleur
}
review-worse = { $side ->
    [black] Noirs
   *[other] Blancs
} { $mv }{ $mark } : { $class }, -{ $loss }
review-where = { $score } quand { $best } donnait { $best_score }
review-progress = { $running ->
    [yes] Analyse en cours…
   *[no] Analysés :
} { $done } coups sur { $total }
review-per-move = { $loss }/coup
review-worst = pire : coup { $n } { $mv } (-{ $loss })
review-decided-start = Issue décidée dès le départ (exact)
review-decided-at = Issue décidée au coup { $n }
review-decided-never = Issue : pas encore certaine
review-left-book = sortie du livre : coup { $n } { $mv } (livre { $value } ; son meilleur { $best } { $best_value })
review-left-book-unknown = sortie du livre : coup { $n } { $mv } (un coup qu'il ne connaît pas ; son meilleur { $best } { $best_value })
graph-caption = Noirs { $now } { $exact }exact { $estimate }estimé

## Parties enregistrées

note-replay-record = { $black } contre { $white }, { $result } : relecture (Échap sort)
note-resumed = { $black } contre { $white } : reprise après { $n ->
    [one] { $n } coup
   *[other] { $n } coups
}
note-review-unread = { $note } ; son analyse enregistrée n'a pas pu être lue ({ $error })
note-autosave-moved = La partie sauvegardée n'a pas pu être lue ({ $error }) ; elle a été déplacée dans { $path }
note-autosave-stuck = La partie sauvegardée n'a pas pu être lue ({ $error }) ni mise de côté ({ $reason })
note-replay-transcript = Relecture de { $n ->
    [one] { $n } coup
   *[other] { $n } coups
} : → avance, Échap sort
players-vs = { $black } contre { $white }
note-collection = { $players }, { $result } : relecture (Échap sort)
note-game-of = Partie { $n } sur { $count } : { $note }
note-not-played-out = { $result } (partie non jouée jusqu'au bout)
