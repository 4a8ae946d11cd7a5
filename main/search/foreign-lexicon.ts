// A small built-in lexicon for queries in other languages: the verbs and nouns tool requests are made of,
// in German, French, Spanish, Portuguese, Italian, Chinese and Japanese, mapped to English index words.
// Tool catalogues are written in English; a query word found here is searched as its English words.

// English word: its translations, space-separated (accents kept; the query side is matched as typed).
const TABLE: ReadonlyArray<readonly [string, string]> = [
  ['create', 'erstellen anlegen erzeugen créer creer crear criar creare 创建 新建 作成'],
  ['new', 'neu neue neues neuen nouveau nouvelle nuevo nueva novo nova nuovo nuova 新'],
  ['read', 'lesen lire leer ler leggere 读取 读 読む 読み込む 読み込み'],
  ['write', 'schreiben écrire ecrire escribir escrever scrivere 写入 書き込む'],
  [
    'delete',
    'löschen loeschen entfernen supprimer effacer borrar eliminar apagar excluir eliminare cancellare 删除 削除',
  ],
  ['list', 'auflisten liste lister listar elencare 列出 列表 一覧'],
  ['all', 'alle tous toutes todos todas tutti'],
  ['search', 'suchen durchsuchen rechercher chercher buscar procurar pesquisar cercare 搜索 查找 検索'],
  ['find', 'finden trouver encontrar trovare 查找 見つける'],
  ['get', 'holen abrufen obtenir récupérer recuperer obtener obter ottenere 获取 取得'],
  ['show', 'zeigen anzeigen afficher montrer mostrar ver mostrare 显示 查看 表示'],
  ['update', 'aktualisieren mettre actualizar atualizar aggiornare 更新'],
  ['edit', 'bearbeiten ändern aendern modifier editar modificar modificare 编辑 修改 編集'],
  ['move', 'verschieben déplacer deplacer mover spostare 移动 移動'],
  ['rename', 'umbenennen renommer renombrar renomear rinominare 重命名 名前変更'],
  ['copy', 'kopieren copier copiar copiare 复制 コピー'],
  ['send', 'senden schicken envoyer enviar inviare 发送 送信'],
  ['merge', 'zusammenführen fusionner fusionar mesclar unire 合并 マージ'],
  ['upload', 'hochladen téléverser telecharger subir carregar caricare 上传 アップロード'],
  ['download', 'herunterladen télécharger descargar baixar scaricare 下载 ダウンロード'],
  ['run', 'ausführen starten exécuter executer lancer ejecutar executar eseguire 运行 执行 実行'],
  ['stop', 'stoppen anhalten arrêter arreter detener parar fermare 停止'],
  ['restart', 'neustarten redémarrer redemarrer reiniciar riavviare 重启 再起動'],
  ['open', 'öffnen oeffnen ouvrir abrir aprire 打开 開く'],
  ['close', 'schließen schliessen fermer cerrar fechar chiudere 关闭 閉じる'],
  ['install', 'installieren installer instalar installare 安装 インストール'],
  ['add', 'hinzufügen hinzufuegen ajouter añadir anadir agregar adicionar aggiungere 添加 追加'],
  ['file', 'datei dateien fichier fichiers archivo archivos arquivo arquivos file 文件 ファイル'],
  [
    'directory',
    'verzeichnis ordner répertoire repertoire dossier carpeta directorio pasta diretório diretorio cartella 目录 文件夹 フォルダ ディレクトリ',
  ],
  ['repository', 'repositorium dépôt depot repositorio repositório 仓库 リポジトリ'],
  ['branch', 'zweig branche rama ramas ramo 分支 ブランチ'],
  ['branches', 'zweige branches ramas ramos rami 分支'],
  ['commit', 'übertragen commit confirmar 提交 コミット'],
  ['issue', 'ticket problème probleme incidencia problema 问题 課題'],
  ['request', 'anfrage demande solicitud pedido richiesta 请求 リクエスト'],
  ['pull request', '拉取请求 合并请求 プルリクエスト'],
  ['message', 'nachricht nachrichten message mensaje mensagem messaggio 消息 メッセージ'],
  ['channel', 'kanal canal canale 频道 チャンネル'],
  ['page', 'seite seiten page página pagina 页面 ページ'],
  [
    'screenshot',
    'bildschirmfoto screenshot capture écran ecran captura pantalla tela 截图 スクリーンショット',
  ],
  ['user', 'benutzer nutzer utilisateur utilisateurs usuario usuarios utente utenti 用户 ユーザー'],
  ['users', 'benutzer utilisateurs usuarios usuários utenti 用户'],
  ['logs', 'protokolle protokoll journaux registros registro log 日志 ログ'],
  ['collection', 'sammlung collection colección coleccion coleção colecao collezione 集合 コレクション'],
  ['database', 'datenbank données donnees datos dados 数据库 データベース'],
  ['document', 'dokument document documento documentos 文档 ドキュメント'],
  ['dashboard', 'tableau tableaux painel cruscotto 仪表板 ダッシュボード'],
  ['dashboards', 'tableaux paneles painéis 仪表板'],
  ['comment', 'kommentar commentaire comentario comentário commento 评论 コメント'],
  ['image', 'bild image imagen imagem immagine 图片 画像'],
  ['table', 'tabelle table tabla tabela tabella 表 テーブル'],
  ['query', 'abfrage requête requete consulta interrogazione 查询 クエリ'],
  ['cluster', 'cluster clúster 集群 クラスター'],
  ['alert', 'warnung alerte alerta avviso 告警 アラート'],
  ['release', 'veröffentlichung publicación lançamento rilascio 发布 リリース'],
  ['label', 'etikett étiquette etiqueta etichetta 标签 ラベル'],
  ['team', 'équipe equipe equipo squadra 团队 チーム'],
  ['project', 'projekt projet proyecto projeto progetto 项目 プロジェクト'],
  ['link', 'verknüpfen lien enlace ligação collegamento 链接 リンク'],
  ['tab', 'reiter onglet pestaña aba scheda 标签页 タブ'],
  ['click', 'klicken cliquer hacer clic clicar cliccare 点击 クリック'],
  ['navigate', 'navigieren naviguer navegar navigare 导航 移動'],
  ['secret', 'geheimnis secret secreto segredo segreto 密钥 シークレット'],
  ['history', 'verlauf historique historial histórico cronologia 历史 履歴'],
];

// Articles, prepositions and pronouns of those languages: dropped, never spelling-corrected into English.
export const FOREIGN_STOPWORDS: ReadonlySet<string> = new Set(
  (
    'der die das den dem des ein eine einen einem einer im ins zum zur und oder mit von auf für fuer ' +
    'le la les l un une des du de d au aux et ou dans sur pour avec ce cette ces mon ma mes ' +
    'el los las lo una unos unas del al y en con por para mi mis ' +
    'o os um uma dos das da no na nos nas e em com ' +
    'il lo gli i uno della dello dei degli nel nella con per'
  ).split(' '),
);

const byWord = new Map<string, string[]>();
const scripts: Array<readonly [string, string[]]> = [];
for (const [english, translations] of TABLE) {
  for (const word of translations.split(' ')) {
    const list = byWord.get(word) ?? [];
    list.push(...english.split(' '));
    byWord.set(word, list);
    // Chinese and Japanese are written without spaces: their words are looked for inside the text.
    if (/[\u3040-\u30ff\u3400-\u9fff]/u.test(word)) scripts.push([word, english.split(' ')]);
  }
}
scripts.sort((a, b) => b[0].length - a[0].length);

/** English words for a lowercase query word, [] when the lexicon lacks it. */
export function translateWord(word: string): readonly string[] {
  return byWord.get(word) ?? [];
}

/** English words for Chinese and Japanese words found inside a text (longest first, each span once). */
export function translateScript(text: string): Array<{ word: string; typed: string }> {
  if (!/[\u3040-\u30ff\u3400-\u9fff]/u.test(text)) return [];
  const found: Array<{ word: string; typed: string }> = [];
  let rest = text;
  for (const [word, words] of scripts) {
    if (!rest.includes(word)) continue;
    found.push(...words.map((english) => ({ word: english, typed: word })));
    rest = rest.split(word).join(' ');
  }
  return found;
}
